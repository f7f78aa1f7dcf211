-- Drafts and scheduled posts (issue 41): what the composer keeps while an artist works, on the server so that it
-- survives a reload, another device and a restart. Private to its author, counted nowhere (no post_count, in no list).
-- `revision` is bumped by every save: a save that names an older one is refused, so two tabs never silently
-- overwrite each other. A scheduled draft keeps the instant (UTC) and the artist's IANA zone it was chosen in.
CREATE TABLE "drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"author_id" uuid NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"rights" jsonb NOT NULL,
	"series_id" uuid,
	"chapter" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"scheduled_at" timestamp (3) with time zone,
	"time_zone" text,
	"publish_error" text,
	"publishing_since" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drafts_content_check" CHECK (char_length("drafts"."content") <= 2000),
	CONSTRAINT "drafts_chapter_check" CHECK ("drafts"."chapter" is null or char_length("drafts"."chapter") between 1 and 60),
	CONSTRAINT "drafts_revision_check" CHECK ("drafts"."revision" >= 1),
	CONSTRAINT "drafts_schedule_check" CHECK (("drafts"."scheduled_at" is null) = ("drafts"."time_zone" is null))
);
--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- An artist's drafts, the last changed first (their keyset list).
CREATE INDEX "drafts_author_updated_idx" ON "drafts" USING btree ("author_id","updated_at" DESC,"id" DESC);--> statement-breakpoint
-- The drafts due (the per-minute job's scan).
CREATE INDEX "drafts_scheduled_idx" ON "drafts" USING btree ("scheduled_at") WHERE "drafts"."scheduled_at" is not null;--> statement-breakpoint
CREATE INDEX "drafts_series_idx" ON "drafts" USING btree ("series_id") WHERE "drafts"."series_id" is not null;--> statement-breakpoint
-- A draft's pictures in order. A table rather than an array of ids on the draft: a picture is in one draft at most
-- (its unique key, as post_media's), a deleted picture leaves the draft by its foreign key, and the media sweep's
-- "attached to nothing" is an index probe here, whose foreign-key lock makes an attach and the sweep take turns as
-- they do for post_media.
CREATE TABLE "draft_media" (
	"draft_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "draft_media_draft_id_position_pk" PRIMARY KEY("draft_id","position"),
	CONSTRAINT "draft_media_media_key" UNIQUE("media_id")
);
--> statement-breakpoint
ALTER TABLE "draft_media" ADD CONSTRAINT "draft_media_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draft_media" ADD CONSTRAINT "draft_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;
