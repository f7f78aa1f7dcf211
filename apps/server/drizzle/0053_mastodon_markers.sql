-- The Mastodon client API's markers (issue 45): where a person stopped reading their home timeline and their
-- notifications in an app (GET/POST /api/v1/markers), so that another app of theirs starts from there. One row per
-- person and timeline; `version` counts the saves, as Mastodon's does.
CREATE TABLE "mastodon_markers" (
	"user_id" uuid NOT NULL,
	"timeline" text NOT NULL,
	"last_read_id" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mastodon_markers_user_id_timeline_pk" PRIMARY KEY("user_id","timeline"),
	CONSTRAINT "mastodon_markers_timeline_check" CHECK ("mastodon_markers"."timeline" in ('home', 'notifications')),
	CONSTRAINT "mastodon_markers_last_read_id_check" CHECK (char_length("mastodon_markers"."last_read_id") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "mastodon_markers" ADD CONSTRAINT "mastodon_markers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
