-- Pinned works (issue 22): an artist pins up to 6 of their own posts, shown first on their profile in the
-- order they chose (position 0 first). A post is pinned at most once (its id is the key); deleting the
-- post or the account takes its pins with it.
CREATE TABLE "post_pins" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_pins_position" CHECK ("post_pins"."position" >= 0 AND "post_pins"."position" < 6)
);
--> statement-breakpoint
ALTER TABLE "post_pins" ADD CONSTRAINT "post_pins_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_pins" ADD CONSTRAINT "post_pins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "post_pins_user_position_key" ON "post_pins" USING btree ("user_id","position");
