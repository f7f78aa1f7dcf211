-- Collections (issue 41): works by anyone gathered by anyone signed in, public or private, in the collector's order,
-- with a note per work. The Saved tab stays the posts module's `bookmarks` rows, shown as each person's default private
-- collection (docs/collections.md says why). The slug is made from the title and unique among the owner's collections
-- (the page is /{username}/collections/{slug}). The counts are the database's to keep (the triggers below), so that
-- every way a row goes (a removed work, a deleted post, a deleted account: all by cascade) moves them.
CREATE TABLE "collections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"work_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collections_title_check" CHECK (char_length("collections"."title") between 1 and 100),
	CONSTRAINT "collections_description_check" CHECK (char_length("collections"."description") <= 2000),
	CONSTRAINT "collections_slug_check" CHECK ("collections"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and "collections"."slug" <> 'saved'),
	CONSTRAINT "collections_counts_check" CHECK ("collections"."work_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collections_owner_slug_key" ON "collections" USING btree ("owner_id","slug");--> statement-breakpoint
-- A person's collections, newest first (their keyset list).
CREATE INDEX "collections_owner_created_idx" ON "collections" USING btree ("owner_id","created_at" DESC,"id" DESC);--> statement-breakpoint
-- The works of a collection. `position` is a sparse key, as series_works' (migration 0040): a move or an insertion
-- takes the middle of a gap and writes one row; a used-up gap renumbers the collection in one statement, which the
-- deferrable unique key lets pass through positions another row still holds.
CREATE TABLE "collection_works" (
	"collection_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"added_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_works_collection_id_post_id_pk" PRIMARY KEY("collection_id","post_id"),
	CONSTRAINT "collection_works_position_key" UNIQUE ("collection_id","position") DEFERRABLE INITIALLY IMMEDIATE,
	CONSTRAINT "collection_works_note_check" CHECK (char_length("collection_works"."note") <= 500)
);
--> statement-breakpoint
ALTER TABLE "collection_works" ADD CONSTRAINT "collection_works_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_works" ADD CONSTRAINT "collection_works_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The collections a work is in (the "Save to…" menu's checks, an artist taking a work out), and the rows a deleted
-- post takes with it.
CREATE INDEX "collection_works_post_idx" ON "collection_works" USING btree ("post_id");--> statement-breakpoint
-- The counts, by statement (a deleted collection's 10,000 works are one update, not 10,000).
CREATE FUNCTION "collection_work_count_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "collections" c SET "work_count" = c."work_count" + d.n
	FROM (SELECT "collection_id", count(*)::int AS n FROM added GROUP BY 1) d WHERE c."id" = d."collection_id";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "collection_work_count_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "collections" c SET "work_count" = greatest(c."work_count" - d.n, 0)
	FROM (SELECT "collection_id", count(*)::int AS n FROM removed GROUP BY 1) d WHERE c."id" = d."collection_id";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "collection_works_counted_in" AFTER INSERT ON "collection_works" REFERENCING NEW TABLE AS added
	FOR EACH STATEMENT EXECUTE FUNCTION "collection_work_count_added"();--> statement-breakpoint
CREATE TRIGGER "collection_works_counted_out" AFTER DELETE ON "collection_works" REFERENCING OLD TABLE AS removed
	FOR EACH STATEMENT EXECUTE FUNCTION "collection_work_count_removed"();--> statement-breakpoint
-- "Let others add my works to collections" (on by default): off, adding their work to someone's collection is refused.
ALTER TABLE "users" ADD COLUMN "allow_collecting" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- A work added to someone's public collection notifies its artist (kind 'collection-work'): the notification names the
-- collection.
ALTER TABLE "notifications" ADD COLUMN "collection_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_collection_post_idx" ON "notifications" USING btree ("collection_id","post_id") WHERE "notifications"."collection_id" is not null;--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("notifications"."kind" in ('like', 'comment', 'upvote', 'follow', 'mention', 'report-resolved', 'boost', 'series-work', 'collection-work'));
