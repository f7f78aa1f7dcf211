-- Download your data (issue 24). A download link is a random token, stored only as its SHA-256, that works
-- once within a few minutes. An account's running export holds its row in export_runs (one row per account:
-- the primary key is the "one at a time" rule, across every server process on one database); the row is
-- renewed while the zip streams, and one not renewed for a minute belongs to a process that died, so the
-- next export takes it over. Deleting the account takes both.
CREATE TABLE "export_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "export_runs" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"renewed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "export_links" ADD CONSTRAINT "export_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_runs" ADD CONSTRAINT "export_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_links_user_idx" ON "export_links" USING btree ("user_id");
