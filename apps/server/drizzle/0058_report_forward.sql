-- A report of something from another server may be sent to that server too (issue 39, an outbound `Flag`): the
-- reporter ticks "Also send to <host>". `forward_to` is that server (the host of the remote actor whose work, comment
-- or account is reported; null: not sent), `forwarded_at` when the Flag was queued, claimed once by one statement so
-- that a cluster sends it once.
ALTER TABLE "reports" ADD COLUMN "forward_to" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "forwarded_at" timestamp (3) with time zone;
