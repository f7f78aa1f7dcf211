-- Inquiries (issue 42): a signed-in person asks an artist for a commission. One request per thread, the messages of
-- the two people within it, the artist's answer (accepted, declined with a reason, done), and the reference pictures,
-- private to the two: their bytes are kept here (inquiry_references.data), never in the media folder or bucket that
-- /media/* serves to anyone. Each person may delete the thread for themselves (`*_deleted_at`); the row (and with it
-- its messages, pictures and notifications) goes once both have, or with either account (cascade).
CREATE TABLE "inquiries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"body" text NOT NULL,
	"budget_amount" integer,
	"budget_currency" text,
	"deadline" date,
	"state" text DEFAULT 'open' NOT NULL,
	"decline_reason" text,
	"message_count" integer DEFAULT 0 NOT NULL,
	"artist_deleted_at" timestamp (3) with time zone,
	"client_deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inquiries_not_self" CHECK ("inquiries"."artist_id" <> "inquiries"."client_id"),
	CONSTRAINT "inquiries_body_check" CHECK (char_length("inquiries"."body") between 1 and 5000),
	CONSTRAINT "inquiries_budget_check" CHECK (("inquiries"."budget_amount" is null) = ("inquiries"."budget_currency" is null)
		and ("inquiries"."budget_amount" is null or "inquiries"."budget_amount" between 1 and 100000000)
		and ("inquiries"."budget_currency" is null or "inquiries"."budget_currency" ~ '^[A-Z]{3}$')),
	CONSTRAINT "inquiries_state_check" CHECK ("inquiries"."state" in ('open', 'accepted', 'declined', 'done')),
	CONSTRAINT "inquiries_decline_check" CHECK (("inquiries"."state" = 'declined') = ("inquiries"."decline_reason" is not null)
		and ("inquiries"."decline_reason" is null or char_length("inquiries"."decline_reason") between 1 and 1000))
);
--> statement-breakpoint
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The artist's inbox and the client's sent list, the latest activity first (their keyset lists).
CREATE INDEX "inquiries_artist_idx" ON "inquiries" USING btree ("artist_id","updated_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX "inquiries_client_idx" ON "inquiries" USING btree ("client_id","updated_at" DESC,"id" DESC);--> statement-breakpoint
CREATE TABLE "inquiry_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"inquiry_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inquiry_messages_body_check" CHECK (char_length("inquiry_messages"."body") between 1 and 2000)
);
--> statement-breakpoint
ALTER TABLE "inquiry_messages" ADD CONSTRAINT "inquiry_messages_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inquiry_messages" ADD CONSTRAINT "inquiry_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inquiry_messages_inquiry_idx" ON "inquiry_messages" USING btree ("inquiry_id","created_at","id");--> statement-breakpoint
-- The reference pictures, re-encoded (JPEG, no metadata) and kept as bytes: served only by
-- GET /api/inquiries/{id}/references/{referenceId} to the two people of the inquiry.
CREATE TABLE "inquiry_references" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"inquiry_id" uuid NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"content_type" text NOT NULL,
	"data" bytea NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inquiry_references" ADD CONSTRAINT "inquiry_references_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inquiry_references_inquiry_idx" ON "inquiry_references" USING btree ("inquiry_id","created_at");--> statement-breakpoint
-- Who may send an artist an inquiry (everyone signed in, their followers, or nobody) and whether a new one is mailed.
-- No row: everyone, no mail.
CREATE TABLE "inquiry_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"accepting" text DEFAULT 'everyone' NOT NULL,
	"mail" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inquiry_settings_accepting_check" CHECK ("inquiry_settings"."accepting" in ('everyone', 'followers', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "inquiry_settings" ADD CONSTRAINT "inquiry_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A notification of a new inquiry, a new message or a changed state names the inquiry.
ALTER TABLE "notifications" ADD COLUMN "inquiry_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_inquiry_idx" ON "notifications" USING btree ("inquiry_id") WHERE "notifications"."inquiry_id" is not null;--> statement-breakpoint
-- An inquiry can be reported to the moderators (the reported person is the other one of the two).
ALTER TABLE "reports" DROP CONSTRAINT "reports_target_type_check";--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_target_type_check" CHECK ("reports"."target_type" in ('post', 'comment', 'user', 'inquiry'));--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("notifications"."kind" in ('like', 'comment', 'upvote', 'follow', 'mention', 'report-resolved', 'boost', 'series-work', 'collection-work', 'commissions-open', 'inquiry', 'inquiry-message', 'inquiry-state'));
