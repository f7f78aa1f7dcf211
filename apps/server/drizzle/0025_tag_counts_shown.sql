-- A tag's count is the works anyone signed in may see under it: a post hidden or removed by a moderator no
-- longer counts (issue 22: the tag page said "12 works" over a grid of 10).
-- Still counted: the works of a suspended account (a suspension ends by itself, which no trigger sees) and
-- of an account shown to signed-in people only (a visitor's grid has fewer).
CREATE OR REPLACE FUNCTION share_arts_count_tags() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted_before text[] := '{}';
  counted_after text[] := '{}';
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.moderation_state IS NULL THEN
    counted_before := coalesce(OLD.tags, '{}');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.moderation_state IS NULL THEN
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
$$;--> statement-breakpoint
DROP TRIGGER posts_tag_counts ON posts;--> statement-breakpoint
CREATE TRIGGER posts_tag_counts AFTER INSERT OR DELETE OR UPDATE OF tags, moderation_state ON posts FOR EACH ROW EXECUTE FUNCTION share_arts_count_tags();--> statement-breakpoint
WITH shown AS MATERIALIZED (
  SELECT used.tag, count(*)::int AS n FROM posts p, unnest(p.tags) AS used(tag)
  WHERE p.moderation_state IS NULL GROUP BY used.tag
)
UPDATE tags t SET post_count = coalesce((SELECT shown.n FROM shown WHERE shown.tag = t.tag), 0);
