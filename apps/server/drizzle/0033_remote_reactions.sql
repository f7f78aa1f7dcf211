-- The fediverse (issue 39, what arrives): a remote actor's `Like` and `Announce` (a boost) of a public work, once
-- per actor, work and kind; `activity_id` is the activity's id, which an `Undo` may name alone. Deleting the work
-- deletes them (its counter goes with it); deleting the remote actor deletes them too, after the statement that
-- does it counted its likes down (actions/federation.ts). The remote likes are counted apart from the local ones
-- (`posts.remote_like_count`, as `users.remote_follower_count` is): `like_count` stays the number of
-- `post_reactions` likes, and the site shows the sum. A boost notifies ("boosted your post"), a new kind.
ALTER TABLE "posts" ADD COLUMN "remote_like_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_remote_like_count_check" CHECK ("posts"."remote_like_count" >= 0);--> statement-breakpoint
CREATE TABLE "remote_reactions" (
	"post_id" uuid NOT NULL,
	"remote_actor_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"activity_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_reactions_pkey" PRIMARY KEY("post_id","remote_actor_id","kind"),
	CONSTRAINT "remote_reactions_kind_check" CHECK ("remote_reactions"."kind" in ('like', 'boost'))
);--> statement-breakpoint
ALTER TABLE "remote_reactions" ADD CONSTRAINT "remote_reactions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_reactions" ADD CONSTRAINT "remote_reactions_remote_actor_id_remote_actors_id_fk" FOREIGN KEY ("remote_actor_id") REFERENCES "public"."remote_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remote_reactions_actor_idx" ON "remote_reactions" USING btree ("remote_actor_id");--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("notifications"."kind" in ('like', 'comment', 'upvote', 'follow', 'mention', 'report-resolved', 'boost'));
