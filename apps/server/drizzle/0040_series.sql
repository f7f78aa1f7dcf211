-- Series (issue 41): an artist's own works, in the artist's order, optionally in chapters. The slug is made from the
-- title and unique among the owner's series (the page is /{username}/series/{slug}). The counts are the database's to
-- keep (the triggers below), so that every way a row goes (a removed work, a deleted post, a deleted account: all by
-- cascade) moves them.
CREATE TABLE "series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cover_post_id" uuid,
	"work_count" integer DEFAULT 0 NOT NULL,
	"follower_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_title_check" CHECK (char_length("series"."title") between 1 and 100),
	CONSTRAINT "series_description_check" CHECK (char_length("series"."description") <= 2000),
	CONSTRAINT "series_slug_check" CHECK ("series"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "series_counts_check" CHECK ("series"."work_count" >= 0 and "series"."follower_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_cover_post_id_posts_id_fk" FOREIGN KEY ("cover_post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "series_owner_slug_key" ON "series" USING btree ("owner_id","slug");--> statement-breakpoint
-- An artist's series, newest first (their keyset list).
CREATE INDEX "series_owner_created_idx" ON "series" USING btree ("owner_id","created_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX "series_cover_post_idx" ON "series" USING btree ("cover_post_id") WHERE "series"."cover_post_id" is not null;--> statement-breakpoint
-- The works of a series. `position` is a sparse key (multiples of 65536 when renumbered): a move or an insertion
-- between two works takes the middle of their gap and writes one row; only when a gap is used up is the series
-- renumbered, in one statement. The unique key is checked at the end of each statement (deferrable), so that the
-- renumbering may pass through positions another row still holds.
CREATE TABLE "series_works" (
	"series_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"chapter" text,
	"added_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_works_series_id_post_id_pk" PRIMARY KEY("series_id","post_id"),
	CONSTRAINT "series_works_position_key" UNIQUE ("series_id","position") DEFERRABLE INITIALLY IMMEDIATE,
	CONSTRAINT "series_works_chapter_check" CHECK ("series_works"."chapter" is null or char_length("series_works"."chapter") between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "series_works" ADD CONSTRAINT "series_works_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_works" ADD CONSTRAINT "series_works_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The series a work is in (the post page's links), and the rows a deleted post takes with it.
CREATE INDEX "series_works_post_idx" ON "series_works" USING btree ("post_id");--> statement-breakpoint
-- A series' newest additions (its Atom feed).
CREATE INDEX "series_works_added_idx" ON "series_works" USING btree ("series_id","added_at" DESC);--> statement-breakpoint
-- The people who follow a series alone (a comic's readers): a work added to it notifies them.
CREATE TABLE "series_follows" (
	"series_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_follows_series_id_user_id_pk" PRIMARY KEY("series_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "series_follows" ADD CONSTRAINT "series_follows_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_follows" ADD CONSTRAINT "series_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "series_follows_user_idx" ON "series_follows" USING btree ("user_id","created_at");--> statement-breakpoint
-- The counts, by statement (a deleted series' 10,000 works are one update, not 10,000). A series deleted in the same
-- statement has no row left to update.
CREATE FUNCTION "series_work_count_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "series" s SET "work_count" = s."work_count" + d.n
	FROM (SELECT "series_id", count(*)::int AS n FROM added GROUP BY 1) d WHERE s."id" = d."series_id";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "series_work_count_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "series" s SET "work_count" = greatest(s."work_count" - d.n, 0)
	FROM (SELECT "series_id", count(*)::int AS n FROM removed GROUP BY 1) d WHERE s."id" = d."series_id";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "series_works_counted_in" AFTER INSERT ON "series_works" REFERENCING NEW TABLE AS added
	FOR EACH STATEMENT EXECUTE FUNCTION "series_work_count_added"();--> statement-breakpoint
CREATE TRIGGER "series_works_counted_out" AFTER DELETE ON "series_works" REFERENCING OLD TABLE AS removed
	FOR EACH STATEMENT EXECUTE FUNCTION "series_work_count_removed"();--> statement-breakpoint
CREATE FUNCTION "series_follower_count_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "series" s SET "follower_count" = s."follower_count" + d.n
	FROM (SELECT "series_id", count(*)::int AS n FROM added GROUP BY 1) d WHERE s."id" = d."series_id";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "series_follower_count_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "series" s SET "follower_count" = greatest(s."follower_count" - d.n, 0)
	FROM (SELECT "series_id", count(*)::int AS n FROM removed GROUP BY 1) d WHERE s."id" = d."series_id";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "series_follows_counted_in" AFTER INSERT ON "series_follows" REFERENCING NEW TABLE AS added
	FOR EACH STATEMENT EXECUTE FUNCTION "series_follower_count_added"();--> statement-breakpoint
CREATE TRIGGER "series_follows_counted_out" AFTER DELETE ON "series_follows" REFERENCING OLD TABLE AS removed
	FOR EACH STATEMENT EXECUTE FUNCTION "series_follower_count_removed"();--> statement-breakpoint
-- A work added to a series notifies the series' followers (kind 'series-work'): the notification names the series.
ALTER TABLE "notifications" ADD COLUMN "series_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_series_post_idx" ON "notifications" USING btree ("series_id","post_id") WHERE "notifications"."series_id" is not null;--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("notifications"."kind" in ('like', 'comment', 'upvote', 'follow', 'mention', 'report-resolved', 'boost', 'series-work'));
