-- Open for commissions (issue 42): an artist's panel (one row per artist who ever filled it in), the example works
-- picked from their own portfolio (in their order), and the followers who asked to be told when they open.
-- Prices are whole units of an ISO 4217 currency (50 for 50 €); a price filter compares like currencies only.
CREATE TABLE "commission_profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"open" boolean DEFAULT false NOT NULL,
	"kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"kinds_note" text DEFAULT '' NOT NULL,
	"slots_total" integer,
	"slots_taken" integer DEFAULT 0 NOT NULL,
	"currency" text,
	"price_min" integer,
	"price_max" integer,
	"turnaround_days" integer,
	"terms" text DEFAULT '' NOT NULL,
	"terms_url" text,
	"languages" text[] DEFAULT '{}'::text[] NOT NULL,
	"opened_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commission_profiles_kinds_check" CHECK ("commission_profiles"."kinds" <@ array['illustration', 'character-design', 'portrait', 'concept-art', 'comic', 'logo', 'tattoo-design', 'other']::text[]),
	CONSTRAINT "commission_profiles_kinds_note_check" CHECK (char_length("commission_profiles"."kinds_note") <= 200),
	CONSTRAINT "commission_profiles_slots_check" CHECK (("commission_profiles"."slots_total" is null and "commission_profiles"."slots_taken" = 0) or ("commission_profiles"."slots_total" between 1 and 99 and "commission_profiles"."slots_taken" between 0 and "commission_profiles"."slots_total")),
	CONSTRAINT "commission_profiles_price_check" CHECK (("commission_profiles"."currency" is null and "commission_profiles"."price_min" is null and "commission_profiles"."price_max" is null) or ("commission_profiles"."currency" ~ '^[A-Z]{3}$' and "commission_profiles"."price_min" between 0 and "commission_profiles"."price_max" and "commission_profiles"."price_max" <= 10000000)),
	CONSTRAINT "commission_profiles_turnaround_check" CHECK ("commission_profiles"."turnaround_days" is null or "commission_profiles"."turnaround_days" between 1 and 365),
	CONSTRAINT "commission_profiles_terms_check" CHECK (char_length("commission_profiles"."terms") <= 2000),
	CONSTRAINT "commission_profiles_terms_url_check" CHECK ("commission_profiles"."terms_url" is null or ("commission_profiles"."terms_url" like 'https://%' and char_length("commission_profiles"."terms_url") <= 500)),
	CONSTRAINT "commission_profiles_languages_check" CHECK (cardinality("commission_profiles"."languages") <= 10)
);
--> statement-breakpoint
ALTER TABLE "commission_profiles" ADD CONSTRAINT "commission_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The filters (search, tag pages, Explore): the open artists by kind of work, and by price in one currency.
CREATE INDEX "commission_profiles_kinds_idx" ON "commission_profiles" USING gin ("kinds") WHERE "commission_profiles"."open";--> statement-breakpoint
CREATE INDEX "commission_profiles_price_idx" ON "commission_profiles" USING btree ("currency","price_min","price_max") WHERE "commission_profiles"."open";--> statement-breakpoint
CREATE INDEX "commission_profiles_open_idx" ON "commission_profiles" USING btree ("user_id") WHERE "commission_profiles"."open";--> statement-breakpoint
CREATE TABLE "commission_examples" (
	"user_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "commission_examples_user_id_post_id_pk" PRIMARY KEY("user_id","post_id"),
	CONSTRAINT "commission_examples_position_check" CHECK ("commission_examples"."position" between 0 and 5)
);
--> statement-breakpoint
ALTER TABLE "commission_examples" ADD CONSTRAINT "commission_examples_user_id_commission_profiles_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."commission_profiles"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_examples" ADD CONSTRAINT "commission_examples_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_examples_post_idx" ON "commission_examples" USING btree ("post_id");--> statement-breakpoint
-- "Tell me when they open": `notified_at` is when this watcher was last told, so that opening, closing and opening
-- again within a day tells them once.
CREATE TABLE "commission_watchers" (
	"artist_id" uuid NOT NULL,
	"watcher_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp (3) with time zone,
	CONSTRAINT "commission_watchers_artist_id_watcher_id_pk" PRIMARY KEY("artist_id","watcher_id")
);
--> statement-breakpoint
ALTER TABLE "commission_watchers" ADD CONSTRAINT "commission_watchers_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_watchers" ADD CONSTRAINT "commission_watchers_watcher_id_users_id_fk" FOREIGN KEY ("watcher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_watchers_watcher_idx" ON "commission_watchers" USING btree ("watcher_id","created_at");--> statement-breakpoint
-- An artist opening (again) notifies the followers who asked (kind 'commissions-open').
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("notifications"."kind" in ('like', 'comment', 'upvote', 'follow', 'mention', 'report-resolved', 'boost', 'series-work', 'collection-work', 'commissions-open'));
