-- The fediverse (issue 39, what arrives): a reply from Mastodon or Pixelfed to one of our works is a comment on it,
-- written by a remote actor rather than an account here. A comment has exactly one author: `author_id` (an account)
-- or `remote_actor_id` (a remote actor; its comments go with its row). A remote comment keeps its Note's id
-- (`note_iri`, unique: the same Note delivered twice is one comment; its Update and Delete name it) and the page
-- the Note names (`note_url`, shown as a link to the original). Deleting the remote actor deletes its comments,
-- after the statement that does it counted their works' comment counts down (actions/comments.ts): the foreign
-- key alone would leave the counts high.
ALTER TABLE "comments" ALTER COLUMN "author_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "remote_actor_id" uuid;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "note_iri" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "note_url" text;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_remote_actor_id_remote_actors_id_fk" FOREIGN KEY ("remote_actor_id") REFERENCES "public"."remote_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_note_iri_unique" UNIQUE("note_iri");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_one_author" CHECK (num_nonnulls("comments"."author_id", "comments"."remote_actor_id") = 1);--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_remote_note" CHECK (("comments"."remote_actor_id" is null) = ("comments"."note_iri" is null));--> statement-breakpoint
CREATE INDEX "comments_remote_actor_idx" ON "comments" USING btree ("remote_actor_id") WHERE "comments"."remote_actor_id" is not null;
