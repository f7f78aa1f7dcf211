-- Background jobs (issue 37) are kept by pg-boss in its own schema (pgboss), which it creates and migrates
-- itself. This table is the app's side: the effects a job has already had, by job id and a name the handler
-- gives each effect (src/jobs/queue.ts, `once`). A job whose completion was lost (its process died after the
-- work, before pg-boss recorded it) runs again after the restart, and skips what it already did.
CREATE TABLE "job_effects" (
	"job_id" text NOT NULL,
	"effect" text NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_effects_pkey" PRIMARY KEY ("job_id", "effect")
);
--> statement-breakpoint
CREATE INDEX "job_effects_done_at_idx" ON "job_effects" USING btree ("done_at");
