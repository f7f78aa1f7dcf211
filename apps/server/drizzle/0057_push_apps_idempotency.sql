-- Idempotency-Key (issue 44): a write sent again with the same key by the same person within 24 hours (a comment the
-- offline queue replays, a retried request) answers the first one's result and stores nothing twice. One row per
-- person, kind of write (`scope`: `comment`) and key; `result_id` names what the first write made (null while it is
-- being made). Rows older than 24 hours are swept, and taken over by a new write with the same key.
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"result_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_scope_key_pk" PRIMARY KEY("user_id","scope","key"),
	CONSTRAINT "idempotency_keys_key_length" CHECK (char_length("key") <= 255 and char_length("scope") <= 32)
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
-- The Mastodon API's push subscriptions (issue 45): a Mastodon app's subscription is its token's (a session's), as a
-- browser's is; `client` says which payload it is pushed (ours, or Mastodon's shape), `policy` whose notifications
-- (Mastodon's all, followed, follower, none), `alerts` the Mastodon alerts it asked for (as they are answered back),
-- `encoding` the content coding (RFC 8291's aes128gcm, or the older aesgcm that Mastodon apps take unless they say
-- `standard`), `app_token` the app's access token sealed (AES-256-GCM under a key derived from JWT_SECRET), which
-- Mastodon's payload carries.
ALTER TABLE "push_subscriptions" ADD COLUMN "client" text DEFAULT 'web' NOT NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "policy" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "alerts" text[];--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "encoding" text DEFAULT 'aes128gcm' NOT NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "app_token" text;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_client" CHECK ("client" in ('web', 'mastodon') and "policy" in ('all', 'followed', 'follower', 'none') and "encoding" in ('aes128gcm', 'aesgcm') and char_length(coalesce("app_token", '')) <= 512);
