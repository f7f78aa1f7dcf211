-- Reports and moderation (issue 23): roles, suspension, a moderation state on posts and comments,
-- reports (one open report per reporter and target) and the audit log of every moderation action.
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("role" in ('user', 'moderator', 'admin'));--> statement-breakpoint
-- Suspended while suspended_until is in the future ('infinity': for good).
ALTER TABLE "users" ADD COLUMN "suspended_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
-- null: shown; 'hidden': shown to its author only, with the reason; 'removed': shown to nobody (kept for the audit).
ALTER TABLE "posts" ADD COLUMN "moderation_state" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_moderation_state_check" CHECK ("moderation_state" is null or "moderation_state" in ('hidden', 'removed'));--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "moderation_state" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_moderation_state_check" CHECK ("moderation_state" is null or "moderation_state" in ('hidden', 'removed'));--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp (3) with time zone,
	CONSTRAINT "reports_target_type_check" CHECK ("reports"."target_type" in ('post', 'comment', 'user')),
	CONSTRAINT "reports_reason_check" CHECK ("reports"."reason" in ('spam', 'harassment', 'hate', 'minors', 'stolen-art', 'undisclosed-ai', 'other')),
	CONSTRAINT "reports_status_check" CHECK ("reports"."status" in ('open', 'resolved')),
	CONSTRAINT "reports_outcome_check" CHECK ("reports"."outcome" is null or "reports"."outcome" in ('dismiss', 'hide', 'remove', 'mark-sensitive', 'suspend'))
);--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- One open report per reporter and target; the queue reads open reports by target, oldest first.
CREATE UNIQUE INDEX "reports_open_key" ON "reports" USING btree ("reporter_id","target_type","target_id") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reports_open_target_idx" ON "reports" USING btree ("target_type","target_id","created_at") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reports_open_created_idx" ON "reports" USING btree ("created_at","id") WHERE "reports"."status" = 'open';--> statement-breakpoint
-- The audit log: append-only. No foreign keys (a deleted account must not change or delete its rows);
-- the actor's username is kept as it was.
CREATE TABLE "moderation_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid NOT NULL,
	"actor_username" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"target_user_id" uuid,
	"reason" text NOT NULL,
	"until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_actions_action_check" CHECK ("moderation_actions"."action" in ('dismiss', 'hide', 'remove', 'mark-sensitive', 'suspend', 'role'))
);--> statement-breakpoint
CREATE INDEX "moderation_actions_created_idx" ON "moderation_actions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "moderation_actions_target_idx" ON "moderation_actions" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "moderation_actions_target_user_idx" ON "moderation_actions" USING btree ("target_user_id");--> statement-breakpoint
CREATE FUNCTION "moderation_actions_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'moderation_actions is an append-only audit log: % is not allowed', TG_OP;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "moderation_actions_no_change" BEFORE UPDATE OR DELETE ON "moderation_actions" FOR EACH ROW EXECUTE FUNCTION "moderation_actions_append_only"();--> statement-breakpoint
CREATE TRIGGER "moderation_actions_no_truncate" BEFORE TRUNCATE ON "moderation_actions" FOR EACH STATEMENT EXECUTE FUNCTION "moderation_actions_append_only"();--> statement-breakpoint
-- The reporter is told the outcome: a 'report-resolved' notification names its report.
ALTER TABLE "notifications" ADD COLUMN "report_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("notifications"."kind" in ('like', 'comment', 'upvote', 'follow', 'mention', 'report-resolved'));
