-- Faithful pictures (issue 21): a picture remembers the file name it was uploaded under (what Download
-- saves it as; '' for older pictures, shown as "picture.<ext>"), and whether it is pixel art (variants
-- scaled with nearest-neighbour) or an animation (animated WebP variants besides its still first frame).
ALTER TABLE "media" ADD COLUMN "original_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "pixelated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "animated" boolean DEFAULT false NOT NULL;
