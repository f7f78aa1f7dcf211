-- Bring your work (issue 40): an archive from Instagram, Mastodon, Pixelfed or another Share Arts, imported by a
-- background job. `imports` is one archive: its preview, the artist's choices and its progress, which the job
-- writes after each source post, so that a restarted job goes on where it stopped. `origin` names whose archive it
-- is (a Mastodon actor, a Share Arts account, an Instagram username), so that one person's archive brings its works
-- to one account of this server only. At most one import of an account is queued or running at once (the
-- partial unique index).
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"state" text NOT NULL,
	"file_name" text NOT NULL,
	"bytes" bigint NOT NULL,
	"origin" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"preview" jsonb NOT NULL,
	"posts_total" integer NOT NULL,
	"pictures_total" integer NOT NULL,
	"posts_done" integer DEFAULT 0 NOT NULL,
	"pictures_done" integer DEFAULT 0 NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"resumed_at" timestamp (3) with time zone,
	"pictures_at_resume" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "imports_source_check" CHECK ("imports"."source" in ('instagram', 'mastodon', 'pixelfed', 'share-arts')),
	CONSTRAINT "imports_state_check" CHECK ("imports"."state" in ('ready', 'queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_user_created_idx" ON "imports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "imports_one_running_key" ON "imports" USING btree ("user_id") WHERE "imports"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "imports_origin_idx" ON "imports" USING btree ("origin");--> statement-breakpoint
-- Each source post of an import once handled, at its place in the archive (oldest first): imported (with its work),
-- already imported by an earlier import of the same account (`already`), or skipped and why. Written with its work
-- in one transaction: a job that dies between two posts leaves each either whole or not begun. A source post is
-- imported once per account (the partial unique index): the same archive twice imports nothing twice.
CREATE TABLE "import_items" (
	"import_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"source_key" text NOT NULL,
	"outcome" text NOT NULL,
	"post_id" uuid,
	"reason" text,
	"caption" text DEFAULT '' NOT NULL,
	"date" timestamp (3) with time zone,
	"pictures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "import_items_import_id_position_pk" PRIMARY KEY("import_id","position"),
	CONSTRAINT "import_items_outcome_check" CHECK ("import_items"."outcome" in ('imported', 'already', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "import_items" ADD CONSTRAINT "import_items_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_items" ADD CONSTRAINT "import_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_items" ADD CONSTRAINT "import_items_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "import_items_imported_key" ON "import_items" USING btree ("user_id","source_key") WHERE "import_items"."outcome" = 'imported';--> statement-breakpoint
CREATE INDEX "import_items_post_idx" ON "import_items" USING btree ("post_id");--> statement-breakpoint
-- "Mark as imported": where a work came from (Instagram, Mastodon, …), null for a work made here.
ALTER TABLE "posts" ADD COLUMN "imported_from" text;
