-- The fediverse (issue 39, part 2: being followed, and what leaves). The remote actors that follow local
-- accounts, their follows, and the works whose Create went out (so that an edit is sent as an Update and a
-- deletion as a Delete, to the same followers). modules/federation writes these three tables; the remote
-- followers' count is kept on the account beside the local one (actions/federation.ts), which the profile
-- shows as their sum.
ALTER TABLE "users" ADD COLUMN "remote_follower_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_remote_follower_count_check" CHECK ("users"."remote_follower_count" >= 0);--> statement-breakpoint
-- A remote actor as last fetched: its id (IRI), `user@host`, where to deliver to (its inbox, and its
-- server's shared inbox when it has one), and what a list of followers shows of it.
CREATE TABLE "remote_actors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"iri" text NOT NULL,
	"handle" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"name" text DEFAULT '' NOT NULL,
	"icon_url" text,
	"profile_url" text,
	"fetched_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_actors_iri_unique" UNIQUE("iri")
);--> statement-breakpoint
-- A remote actor follows a local account: the Follow's id is what its Undo names.
CREATE TABLE "remote_follows" (
	"user_id" uuid NOT NULL,
	"remote_actor_id" uuid NOT NULL,
	"activity_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_follows_pkey" PRIMARY KEY("user_id","remote_actor_id")
);--> statement-breakpoint
ALTER TABLE "remote_follows" ADD CONSTRAINT "remote_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_follows" ADD CONSTRAINT "remote_follows_remote_actor_id_remote_actors_id_fk" FOREIGN KEY ("remote_actor_id") REFERENCES "public"."remote_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remote_follows_actor_idx" ON "remote_follows" USING btree ("remote_actor_id");--> statement-breakpoint
CREATE INDEX "remote_follows_user_created_idx" ON "remote_follows" USING btree ("user_id","created_at" DESC NULLS FIRST,"remote_actor_id" DESC NULLS FIRST);--> statement-breakpoint
-- A work whose Create was sent, with the hash of the Note sent last: an edit that changes the Note is an
-- Update, a work no longer public (deleted, removed, hidden) a Delete. No foreign key to the post: the row
-- outlives the post until its Delete is queued.
CREATE TABLE "federated_posts" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"author_id" uuid NOT NULL,
	"note_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "federated_posts" ADD CONSTRAINT "federated_posts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
