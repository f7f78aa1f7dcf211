-- An artist blocks someone on another server (issue 39, safety across servers): the block names the remote actor
-- (deleted with its row: a Delete of the actor, an inbox gone); `block_id` names the `Block` activity sent to them
-- (`{the artist's actor}#blocks/{block_id}`), which its `Undo` embeds. While it stands their follow, likes, boosts and notifications are gone and nothing
-- of the artist is delivered to them.
CREATE TABLE "remote_person_blocks" (
	"user_id" uuid NOT NULL,
	"remote_actor_id" uuid NOT NULL,
	"block_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_person_blocks_user_id_remote_actor_id_pk" PRIMARY KEY("user_id","remote_actor_id")
);--> statement-breakpoint
ALTER TABLE "remote_person_blocks" ADD CONSTRAINT "remote_person_blocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_person_blocks" ADD CONSTRAINT "remote_person_blocks_remote_actor_id_remote_actors_id_fk" FOREIGN KEY ("remote_actor_id") REFERENCES "public"."remote_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The blocks of one remote actor (its deletion's cascade, a Move carrying them to the new actor).
CREATE INDEX "remote_person_blocks_actor_idx" ON "remote_person_blocks" USING btree ("remote_actor_id");
