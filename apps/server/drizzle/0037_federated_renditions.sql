-- Pixel art and animations go to other servers as a lossless PNG or an animated GIF (issue 39), which uploads
-- write from now on. The pictures uploaded before have none: `federated_pending` marks them, and the background
-- job media.federated-renditions writes theirs from their originals, then clears it (their JPEG goes out until
-- then). A picture with nothing to write (a still photograph, an avatar) is never pending.
ALTER TABLE "media" ADD COLUMN "federated_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "media" SET "federated_pending" = true WHERE "purpose" = 'post' AND ("pixelated" OR "animated");--> statement-breakpoint
-- The job's batches, oldest first; empty once every older picture has its rendition.
CREATE INDEX "media_federated_pending_idx" ON "media" USING btree ("created_at") WHERE "federated_pending";
