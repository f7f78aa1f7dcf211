-- "Show my works to signed-in people only": a signed-out reader finds none of this person's posts.
ALTER TABLE "users" ADD COLUMN "works_signed_in_only" boolean DEFAULT false NOT NULL;
