-- Moving accounts (issue 40, with the fediverse of issue 39). `users.also_known_as`: the actor ids of the artist's
-- other accounts (on Mastodon, Pixelfed…), served as the actor's `alsoKnownAs`, which a server checks before it moves
-- the followers of an old account to this one.
ALTER TABLE "users" ADD COLUMN "also_known_as" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_also_known_as_check" CHECK (cardinality("also_known_as") <= 5);--> statement-breakpoint
-- When a remote actor's Move last moved the follows of our accounts: another within 7 days moves nothing.
ALTER TABLE "remote_actors" ADD COLUMN "moved_at" timestamp (3) with time zone;
