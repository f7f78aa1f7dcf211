-- Tags and mentions (issue 22).
-- A mention of someone in a post or a comment notifies them: a notification kind of its own.
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("notifications"."kind" in ('like', 'comment', 'upvote', 'follow', 'mention'));--> statement-breakpoint
-- The tags each person follows (Home shows their posts); the list is paged newest first.
CREATE TABLE "tag_follows" (
	"user_id" uuid NOT NULL,
	"tag" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_follows_user_id_tag_pk" PRIMARY KEY("user_id","tag")
);--> statement-breakpoint
ALTER TABLE "tag_follows" ADD CONSTRAINT "tag_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tag_follows_user_created_idx" ON "tag_follows" USING btree ("user_id","created_at" DESC NULLS FIRST,"tag" DESC NULLS FIRST);--> statement-breakpoint
-- How many posts carry each tag: a tag page's count and the suggestions by use, without counting the
-- posts (a popular tag is on hundreds of thousands). Kept by the database itself, in the transaction
-- of every write of posts.tags (insert, edit, delete, and a deleted account's posts), so it never drifts.
CREATE TABLE "tags" (
	"tag" text PRIMARY KEY NOT NULL,
	"post_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tags_post_count_non_negative" CHECK ("tags"."post_count" >= 0)
);--> statement-breakpoint
CREATE INDEX "tags_prefix_idx" ON "tags" USING btree (("tag" collate "C"));--> statement-breakpoint
CREATE INDEX "tags_used_idx" ON "tags" USING btree ("post_count" DESC NULLS FIRST,"tag");--> statement-breakpoint
-- Tags are counted up in name order, so two posts with the same tags never wait on each other crosswise.
CREATE FUNCTION share_arts_count_tags() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE tags SET post_count = post_count - 1
    WHERE tag = ANY (OLD.tags) AND (TG_OP = 'DELETE' OR NOT tag = ANY (NEW.tags));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO tags (tag, post_count)
    SELECT DISTINCT added.tag, 1 FROM unnest(NEW.tags) AS added(tag)
    WHERE TG_OP = 'INSERT' OR NOT added.tag = ANY (OLD.tags)
    ORDER BY added.tag
    ON CONFLICT (tag) DO UPDATE SET post_count = tags.post_count + 1;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER posts_tag_counts AFTER INSERT OR DELETE OR UPDATE OF tags ON posts FOR EACH ROW EXECUTE FUNCTION share_arts_count_tags();--> statement-breakpoint
INSERT INTO tags (tag, post_count) SELECT tag, count(*) FROM posts, unnest(posts.tags) AS used(tag) GROUP BY tag;
