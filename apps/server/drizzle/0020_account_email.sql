-- Mail (issue 24): an address is confirmed by a link mailed to it before it receives password resets.
-- Existing accounts start unconfirmed (nothing ever proved they own the address); the seed confirms its own.
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp (3) with time zone;--> statement-breakpoint
-- A changed address is unconfirmed again, whichever statement changed it.
CREATE FUNCTION "users_email_unverify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.email IS DISTINCT FROM OLD.email THEN
    NEW.email_verified_at := NULL;
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_email_unverify" BEFORE UPDATE OF "email" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_email_unverify"();--> statement-breakpoint
-- The single-use links of confirmation and password reset mails. Only the SHA-256 of the token is kept:
-- whoever reads this table cannot use a link (token_hash: 64 hex digits). `email` is the address the link was sent to.
CREATE TABLE "account_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	CONSTRAINT "account_tokens_purpose_check" CHECK ("account_tokens"."purpose" in ('verify-email', 'reset-password'))
);--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_tokens_user_idx" ON "account_tokens" USING btree ("user_id","purpose","created_at");
--> statement-breakpoint
-- "Forgot password?" by email address looks among confirmed addresses only.
CREATE INDEX "users_verified_email_idx" ON "users" USING btree (lower("email")) WHERE "email_verified_at" IS NOT NULL;
