-- Web Push (issue 44, docs/push.md): a device's push subscription, one per session (ending the session or logging
-- out deletes it with the session), with the kinds of notification it is sent; and the push groups, which gather the
-- notifications of one person, kind and work arriving within a short window into one push.
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"kinds" text[] DEFAULT '{follows,likes,comments,mentions,inquiries}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_success_at" timestamp (3) with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint"),
	CONSTRAINT "push_subscriptions_session_unique" UNIQUE("session_id"),
	CONSTRAINT "push_subscriptions_endpoint_length" CHECK (char_length("push_subscriptions"."endpoint") <= 1024),
	CONSTRAINT "push_subscriptions_keys_length" CHECK (char_length("push_subscriptions"."p256dh") <= 128 and char_length("push_subscriptions"."auth") <= 64),
	CONSTRAINT "push_subscriptions_kinds" CHECK ("push_subscriptions"."kinds" <@ array['follows', 'likes', 'comments', 'mentions', 'inquiries']::text[])
);
--> statement-breakpoint
CREATE TABLE "push_groups" (
	"user_id" uuid NOT NULL,
	"group_key" text NOT NULL,
	"pending" boolean DEFAULT true NOT NULL,
	"sent_up_to" timestamp (3) with time zone NOT NULL,
	"live_seen_at" timestamp (3) with time zone,
	CONSTRAINT "push_groups_user_id_group_key_pk" PRIMARY KEY("user_id","group_key")
);
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_groups" ADD CONSTRAINT "push_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");
