-- The artist's rights and content warnings (issue 23).
-- A post's content warning (null = not sensitive), who may comment, its licence, the AI-generated label,
-- and whether its originals may be downloaded.
ALTER TABLE "posts" ADD COLUMN "content_warning" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "comment_policy" text DEFAULT 'everyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "licence" text DEFAULT 'all-rights-reserved' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "ai_generated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "downloadable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_content_warning_length" CHECK ("content_warning" is null or char_length("content_warning") between 1 and 100);--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_comment_policy_check" CHECK ("comment_policy" in ('everyone', 'following', 'nobody'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_licence_check" CHECK ("licence" in ('all-rights-reserved', 'cc-by', 'cc-by-sa', 'cc-by-nc', 'cc-by-nc-nd', 'cc0'));--> statement-breakpoint
-- A viewer's settings: ask AI crawlers not to train on my work (on by default), how sensitive media is
-- shown, and whether AI-generated works are left out of my lists.
ALTER TABLE "users" ADD COLUMN "ai_training_opt_out" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sensitive_media" text DEFAULT 'blur' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hide_ai_generated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sensitive_media_check" CHECK ("sensitive_media" in ('show', 'blur', 'hide'));
