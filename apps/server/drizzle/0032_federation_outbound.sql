-- The fediverse (issue 39, part 3: what else leaves). A work that stops being public is withdrawn (its Delete
-- sent) but its row stays, with its generation: Mastodon keeps a Tombstone of every Note id it was told was
-- deleted and refuses a Create of that id for good, so a work public again goes out under a new id
-- (`/ap/posts/{id}.{generation}`). The row of a work that is gone goes once its Delete is queued.
ALTER TABLE "federated_posts" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "federated_posts" ADD COLUMN "withdrawn" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "federated_posts_author_idx" ON "federated_posts" USING btree ("author_id");--> statement-breakpoint
-- A comment sent as a reply (Create of its Note), with the hash of the Note sent last: an edit is an Update,
-- a comment no longer public (deleted, hidden, its work no longer public) a Delete, after which the row goes.
-- It went to its author's followers and its work's author's (`post_author_id`): so does the Delete. No foreign
-- key to the comment, its post or the work's author: the row outlives them until the Delete is queued.
CREATE TABLE "federated_comments" (
	"comment_id" uuid PRIMARY KEY NOT NULL,
	"post_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"post_author_id" uuid NOT NULL,
	"note_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "federated_comments" ADD CONSTRAINT "federated_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "federated_comments_post_idx" ON "federated_comments" USING btree ("post_id");--> statement-breakpoint
-- The hash of the actor (and its pinned works) last sent as Update(Person): a profile saved unchanged sends
-- nothing, and one process of a cluster sends each change.
CREATE TABLE "federated_actors" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"person_hash" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "federated_actors" ADD CONSTRAINT "federated_actors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
