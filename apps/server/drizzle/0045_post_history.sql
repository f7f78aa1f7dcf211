-- Fixing a published work (issue 41): each edit that changes something is kept in the work's history. A revision says
-- which fields changed and holds their values before and after (the words and the rights, only those that changed:
-- `before` and `after` are jsonb objects of the same keys); the pictures before an edit that changed them are rows of
-- post_revision_media (in order, with the alt text each had then), so that a picture taken out of the post is kept
-- (not deleted) for its author while a revision names it. `posts.edited_at` says when the post last changed in a way
-- its readers see (null: never edited).
ALTER TABLE "posts" ADD COLUMN "edited_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE TABLE "post_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"changed" text[] NOT NULL,
	"before" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"after" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"picture_count_before" smallint,
	"picture_count_after" smallint,
	CONSTRAINT "post_revisions_changed_check" CHECK (cardinality("post_revisions"."changed") >= 1)
);
--> statement-breakpoint
ALTER TABLE "post_revisions" ADD CONSTRAINT "post_revisions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A post's history, newest first (its keyset list), and the rows a deleted post takes with it.
CREATE INDEX "post_revisions_post_created_idx" ON "post_revisions" USING btree ("post_id","created_at" DESC,"id" DESC);--> statement-breakpoint
-- The pictures a post showed before an edit that changed them, in order. `kind` 'picture' is the work's pictures,
-- 'process' its process pictures (issue 41, post_process_pictures). A picture may be named by several revisions (and
-- shown by the post again); the media sweep keeps any picture a revision names.
CREATE TABLE "post_revision_media" (
	"revision_id" uuid NOT NULL,
	"kind" text DEFAULT 'picture' NOT NULL,
	"position" smallint NOT NULL,
	"media_id" uuid NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	CONSTRAINT "post_revision_media_revision_id_kind_position_pk" PRIMARY KEY("revision_id","kind","position"),
	CONSTRAINT "post_revision_media_kind" CHECK ("post_revision_media"."kind" in ('picture', 'process')),
	CONSTRAINT "post_revision_media_position" CHECK ("post_revision_media"."position" >= 0)
);
--> statement-breakpoint
ALTER TABLE "post_revision_media" ADD CONSTRAINT "post_revision_media_revision_id_post_revisions_id_fk" FOREIGN KEY ("revision_id") REFERENCES "public"."post_revisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_revision_media" ADD CONSTRAINT "post_revision_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Whether a revision keeps a picture (the sweep, the media files' rights, a deletion's kept pictures).
CREATE INDEX "post_revision_media_media_idx" ON "post_revision_media" USING btree ("media_id");
