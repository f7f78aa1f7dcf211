-- Server-side sessions (issue 24): every sign-in and sign-up writes one, and its token names it (the `sid`
-- claim). LOG OUT, ending a session from the settings, a password change or reset delete the row, and a
-- token whose session is gone is refused. The user agent is kept bounded; the address is the client's as
-- the server saw it (lib/client-address.ts: an IPv6 client by its /64). last_used_at is written at most
-- every few minutes, off the request path.
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	CONSTRAINT "sessions_user_agent_length" CHECK (char_length("sessions"."user_agent") <= 512),
	CONSTRAINT "sessions_address_length" CHECK (char_length("sessions"."address") <= 64)
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");
