-- Process pictures (issue 41): the sketch, the lines, the flats… that an artist shows beside a finished work, in
-- their order (0 to 9: at most 10 a work). Their own table, not a role on post_media: every reader of post_media
-- (covers, the fediverse's Notes, Atom, the export's pictures of a post, link previews) keeps meaning the finished
-- pictures. A picture shows in one post only, here as there: unique here by media_id, and across the two tables by
-- the constraint triggers below.
CREATE TABLE "post_process_pictures" (
	"post_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "post_process_pictures_post_id_position_pk" PRIMARY KEY("post_id","position"),
	CONSTRAINT "post_process_pictures_position" CHECK ("post_process_pictures"."position" between 0 and 9)
);
--> statement-breakpoint
ALTER TABLE "post_process_pictures" ADD CONSTRAINT "post_process_pictures_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_process_pictures" ADD CONSTRAINT "post_process_pictures_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "post_process_pictures_media_key" ON "post_process_pictures" USING btree ("media_id");--> statement-breakpoint
-- A picture is a finished picture (post_media) or a process picture, of one post. Checked when the transaction
-- commits (deferred), so that one edit may move a picture from one list to the other whatever the order of its
-- statements; the picture's media row is locked first, so that two transactions attaching it to the two tables
-- take turns and the second sees the first's row. A row written and taken out again in the same transaction is
-- not checked. Refused as a unique violation of "post_pictures_one_post" (the API's "in use" 400).
CREATE FUNCTION "post_picture_in_one_post"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM 1 FROM "media" WHERE "id" = NEW."media_id" FOR NO KEY UPDATE;
	IF TG_TABLE_NAME = 'post_media' THEN
		IF EXISTS (SELECT 1 FROM "post_media" WHERE "post_id" = NEW."post_id" AND "media_id" = NEW."media_id")
			AND EXISTS (SELECT 1 FROM "post_process_pictures" WHERE "media_id" = NEW."media_id") THEN
			RAISE EXCEPTION 'the picture % is a process picture of a post', NEW."media_id"
				USING ERRCODE = 'unique_violation', CONSTRAINT = 'post_pictures_one_post';
		END IF;
	ELSIF EXISTS (SELECT 1 FROM "post_process_pictures" WHERE "post_id" = NEW."post_id" AND "media_id" = NEW."media_id")
		AND EXISTS (SELECT 1 FROM "post_media" WHERE "media_id" = NEW."media_id") THEN
		RAISE EXCEPTION 'the picture % is a picture of a post', NEW."media_id"
			USING ERRCODE = 'unique_violation', CONSTRAINT = 'post_pictures_one_post';
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "post_media_one_post" AFTER INSERT OR UPDATE OF "media_id" ON "post_media"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "post_picture_in_one_post"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "post_process_pictures_one_post" AFTER INSERT OR UPDATE OF "media_id" ON "post_process_pictures"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "post_picture_in_one_post"();
