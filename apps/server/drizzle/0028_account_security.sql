-- Account security (issue 38): changing what protects an account asks who is there again. A session may make
-- those changes for a few minutes after it signed in or last confirmed who it is (reauthenticated_at).
ALTER TABLE "sessions" ADD COLUMN "reauthenticated_at" timestamp (3) with time zone;--> statement-breakpoint
-- The security log the owner reads (GET /api/account/security-log), and the mails about each change.
-- user_agent and address describe the session that made the change ('' for a link from a mail).
CREATE TABLE "security_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	CONSTRAINT "security_events_kind_check" CHECK ("security_events"."kind" in ('password-changed', 'password-reset', 'email-changed', 'email-change-undone', 'two-factor-on', 'two-factor-off', 'passkey-added', 'passkey-removed')),
	CONSTRAINT "security_events_detail_length" CHECK (char_length("security_events"."detail") <= 600),
	CONSTRAINT "security_events_user_agent_length" CHECK (char_length("security_events"."user_agent") <= 512),
	CONSTRAINT "security_events_address_length" CHECK (char_length("security_events"."address") <= 64)
);--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "security_events_user_idx" ON "security_events" USING btree ("user_id","at");--> statement-breakpoint
-- The link mailed to the old address of an email change puts it back (its `email`).
ALTER TABLE "account_tokens" DROP CONSTRAINT "account_tokens_purpose_check";--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_purpose_check" CHECK ("account_tokens"."purpose" in ('verify-email', 'reset-password', 'undo-email'));
