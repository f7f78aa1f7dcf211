-- Insights (issue 42): how many people saw an artist's works and profile, per day and per source. Only counts are
-- stored: one row per work (or profile), day, source and referring site's host, whose `views` grows by one upsert per
-- batch of views gathered in memory. Never who viewed: no account, address, user agent or hash is kept here (the
-- daily uniqueness is decided in memory or Redis before a view is counted). A deleted work or account takes its
-- rows with it (cascade).
CREATE TABLE "post_view_days" (
	"post_id" uuid NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "post_view_days_pkey" PRIMARY KEY("post_id","day","source","host"),
	CONSTRAINT "post_view_days_source_check" CHECK ("post_view_days"."source" in ('home', 'explore', 'tag', 'search', 'profile', 'series', 'post', 'notifications', 'external', 'federated', 'direct', 'other')),
	CONSTRAINT "post_view_days_host_check" CHECK (char_length("post_view_days"."host") <= 253 and ("post_view_days"."host" = '') = ("post_view_days"."source" not in ('external', 'federated'))),
	CONSTRAINT "post_view_days_views_check" CHECK ("post_view_days"."views" > 0)
);
--> statement-breakpoint
ALTER TABLE "post_view_days" ADD CONSTRAINT "post_view_days_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "profile_view_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "profile_view_days_pkey" PRIMARY KEY("user_id","day","source","host"),
	CONSTRAINT "profile_view_days_source_check" CHECK ("profile_view_days"."source" in ('home', 'explore', 'tag', 'search', 'profile', 'series', 'post', 'notifications', 'external', 'federated', 'direct', 'other')),
	CONSTRAINT "profile_view_days_host_check" CHECK (char_length("profile_view_days"."host") <= 253 and ("profile_view_days"."host" = '') = ("profile_view_days"."source" not in ('external', 'federated'))),
	CONSTRAINT "profile_view_days_views_check" CHECK ("profile_view_days"."views" > 0)
);
--> statement-breakpoint
ALTER TABLE "profile_view_days" ADD CONSTRAINT "profile_view_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
