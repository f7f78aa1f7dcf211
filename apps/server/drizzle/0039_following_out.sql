-- Following out (issue 39): a remote person an artist here follows becomes a shadow account, a `users` row joined to
-- its `remote_actors` row (Mastodon's model: an account with a domain), so that their works are ordinary `posts` with
-- ordinary `media`. A shadow account's username is `preferredUsername@host`, which no local username can hold.
ALTER TABLE "users" ADD COLUMN "remote_actor_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_remote_actor_id_remote_actors_id_fk" FOREIGN KEY ("remote_actor_id") REFERENCES "public"."remote_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_remote_actor_id_unique" UNIQUE("remote_actor_id");--> statement-breakpoint
-- A work from another server: its Note's id (unique: a Note is stored once, whatever sends it again) and its page there.
ALTER TABLE "posts" ADD COLUMN "note_iri" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "note_url" text;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_note_iri_unique" UNIQUE("note_iri");--> statement-breakpoint
-- A follow of a remote person their server has not accepted yet, and the id of the Follow we sent (its Undo names it).
ALTER TABLE "follows" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "follows" ADD COLUMN "activity_id" text;--> statement-breakpoint
-- Where a remote work's picture was fetched from.
ALTER TABLE "media" ADD COLUMN "remote_url" text;--> statement-breakpoint
-- A remote person's outbox (read once to show their newest works) and preferredUsername.
ALTER TABLE "remote_actors" ADD COLUMN "outbox" text;--> statement-breakpoint
ALTER TABLE "remote_actors" ADD COLUMN "username" text;--> statement-breakpoint
-- A tag's count is the works made here that carry it (migration 0025's rule): another server's works are on no tag
-- page, so they never count (note_iri never changes once a post is written).
CREATE OR REPLACE FUNCTION share_arts_count_tags() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted_before text[] := '{}';
  counted_after text[] := '{}';
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.moderation_state IS NULL AND OLD.note_iri IS NULL THEN
    counted_before := coalesce(OLD.tags, '{}');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.moderation_state IS NULL AND NEW.note_iri IS NULL THEN
    counted_after := coalesce(NEW.tags, '{}');
  END IF;
  UPDATE tags SET post_count = post_count - 1
  WHERE tag = ANY (counted_before) AND NOT tag = ANY (counted_after);
  -- Counted up in name order, so two posts with the same tags never wait on each other crosswise.
  INSERT INTO tags (tag, post_count)
  SELECT DISTINCT added.tag, 1 FROM unnest(counted_after) AS added(tag)
  WHERE NOT added.tag = ANY (counted_before)
  ORDER BY added.tag
  ON CONFLICT (tag) DO UPDATE SET post_count = tags.post_count + 1;
  RETURN NULL;
END;
$$;
