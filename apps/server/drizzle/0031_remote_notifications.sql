-- The fediverse (issue 39, part 2): a remote follow notifies the artist like a local one. A notification's
-- actor is a local account (`actor_id`) or a remote actor (`remote_actor_id`, the row in remote_actors that
-- follows), exactly one of the two. Deleting the remote actor (its Delete, an inbox gone) deletes its
-- notifications, as deleting an account does; the partial index finds them, and the one an Undo withdraws.
ALTER TABLE "notifications" ALTER COLUMN "actor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "remote_actor_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_remote_actor_id_remote_actors_id_fk" FOREIGN KEY ("remote_actor_id") REFERENCES "public"."remote_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_one_actor" CHECK (num_nonnulls("notifications"."actor_id", "notifications"."remote_actor_id") = 1);--> statement-breakpoint
CREATE INDEX "notifications_remote_actor_idx" ON "notifications" USING btree ("remote_actor_id","recipient_id") WHERE "notifications"."remote_actor_id" is not null;
