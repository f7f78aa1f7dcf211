-- The fediverse's safety across servers (issue 39). Blocked and silenced servers: a domain (lower case, IDN as
-- punycode) covers its subdomains, as Mastodon's domain blocks do. `suspend` refuses everything from it (its inbox
-- POSTs answer 403 before its key is fetched; its follows end; nothing is delivered to it), `silence` and
-- `reject_media` are kept and shown (nothing of theirs is shown here yet: inbound posts are not taken in).
CREATE TABLE "server_blocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain" text NOT NULL,
	"severity" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_by_username" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "server_blocks_domain_unique" UNIQUE("domain"),
	CONSTRAINT "server_blocks_severity_check" CHECK ("server_blocks"."severity" in ('suspend', 'silence', 'reject_media'))
);--> statement-breakpoint
ALTER TABLE "server_blocks" ADD CONSTRAINT "server_blocks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A remote actor's Block of a local artist (an inbound `Block`, lifted by its `Undo`): that actor's follow ended,
-- and nothing of the artist is delivered to its own inbox while it stands. By the actor's id: the actor need not
-- be in remote_actors.
CREATE TABLE "remote_blocks" (
	"user_id" uuid NOT NULL,
	"actor_iri" text NOT NULL,
	"activity_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_blocks_user_id_actor_iri_pk" PRIMARY KEY("user_id","actor_iri")
);--> statement-breakpoint
ALTER TABLE "remote_blocks" ADD CONSTRAINT "remote_blocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remote_blocks_actor_idx" ON "remote_blocks" USING btree ("actor_iri");--> statement-breakpoint
-- A report from a remote server's moderators (an inbound `Flag`): no local reporter, the server's domain instead;
-- exactly one of the two. At most one open report per server and target.
ALTER TABLE "reports" ALTER COLUMN "reporter_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "origin_domain" text;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_one_reporter" CHECK (num_nonnulls("reports"."reporter_id", "reports"."origin_domain") = 1);--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_remote_key" ON "reports" USING btree ("origin_domain","target_type","target_id") WHERE "reports"."status" = 'open' and "reports"."origin_domain" is not null;--> statement-breakpoint
-- The audit log names a server block's changes (target_type 'server', target_id the server_blocks row).
ALTER TABLE "moderation_actions" DROP CONSTRAINT "moderation_actions_action_check";--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_action_check" CHECK ("moderation_actions"."action" in ('dismiss', 'hide', 'remove', 'mark-sensitive', 'suspend', 'role', 'server-block', 'server-change', 'server-unblock'));
