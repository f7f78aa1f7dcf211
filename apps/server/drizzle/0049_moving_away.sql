-- Moving away (issue 40, "Moving away from Share Arts works the same way in reverse"): the account an artist moved
-- to (a remote person's shadow account), served as the actor's `movedTo`, and when they
-- moved (another move waits 30 days, as on Mastodon). Deleting the account moved to forgets the move.
ALTER TABLE "users" ADD COLUMN "moved_to_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "moved_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_moved_to_id_users_id_fk" FOREIGN KEY ("moved_to_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_moved_to_check" CHECK ("moved_to_id" is distinct from "id");
