-- OAuth 2 as Mastodon does it (issue 45, docs/oauth.md): the apps that registered (POST /api/v1/apps, their secret
-- kept as its SHA-256), the authorization codes (SHA-256, single-use, 10 minutes, with the PKCE challenge), the
-- tokens of an app alone (client_credentials: no person), and on `sessions` the app and scopes of a person's
-- authorized app with its access token's SHA-256: an authorized app is a session, listed and ended as one.
CREATE TABLE "oauth_apps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"website" text,
	"redirect_uris" text[] NOT NULL,
	"scopes" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_apps_client_id_unique" UNIQUE("client_id"),
	CONSTRAINT "oauth_apps_name_length" CHECK (char_length("name") between 1 and 200)
);--> statement-breakpoint
CREATE TABLE "oauth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"app_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"redirect_uri" text NOT NULL,
	"scopes" text NOT NULL,
	"code_challenge" text,
	"code_challenge_method" text,
	"expires_at" timestamp (3) with time zone NOT NULL
);--> statement-breakpoint
CREATE TABLE "oauth_app_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"app_id" uuid NOT NULL,
	"scopes" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_app_id_oauth_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."oauth_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_app_tokens" ADD CONSTRAINT "oauth_app_tokens_app_id_oauth_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."oauth_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_codes_expires_idx" ON "oauth_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_app_tokens_app_idx" ON "oauth_app_tokens" USING btree ("app_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "oauth_app_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "oauth_scopes" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "oauth_token_hash" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_oauth_app_id_oauth_apps_id_fk" FOREIGN KEY ("oauth_app_id") REFERENCES "public"."oauth_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_oauth_token_hash_unique" UNIQUE("oauth_token_hash");--> statement-breakpoint
CREATE INDEX "sessions_oauth_app_idx" ON "sessions" USING btree ("oauth_app_id") WHERE "oauth_app_id" is not null;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_oauth_check" CHECK (("oauth_app_id" is null) = ("oauth_token_hash" is null) and ("oauth_app_id" is null) = ("oauth_scopes" is null));
