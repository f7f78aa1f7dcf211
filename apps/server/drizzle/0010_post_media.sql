-- A post holds several pictures (issue 21): post_media lists them in the author's order, and
-- posts.media_id, which held one, goes. Every existing picture becomes its post's first (position 0).
CREATE TABLE "post_media" (
	"post_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "post_media_post_id_position_pk" PRIMARY KEY("post_id","position"),
	CONSTRAINT "post_media_position" CHECK ("post_media"."position" >= 0)
);
--> statement-breakpoint
INSERT INTO "post_media" ("post_id", "media_id", "position")
SELECT "id", "media_id", 0 FROM "posts" WHERE "media_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "post_media_media_key" ON "post_media" USING btree ("media_id");--> statement-breakpoint
ALTER TABLE "posts" DROP CONSTRAINT "posts_media_id_media_id_fk";--> statement-breakpoint
DROP INDEX "posts_media_key";--> statement-breakpoint
ALTER TABLE "posts" DROP COLUMN "media_id";
