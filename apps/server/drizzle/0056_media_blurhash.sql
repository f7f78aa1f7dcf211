-- A picture's BlurHash and focal point for the Mastodon client API (issue 45). `blurhash` (4x3 components, computed
-- at upload from a small copy of the picture) is what Mastodon's apps draw while a picture loads (our own pages use
-- the ThumbHash in `placeholder`); null for pictures uploaded before this migration, which the API answers as null.
-- `focus_x`/`focus_y` are Mastodon's focal point (`focus=x,y` on an upload or its update), each from -1 to 1 (x left
-- to right, y bottom to top); null: none given, answered as the centre.
ALTER TABLE "media" ADD COLUMN "blurhash" text;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_blurhash_length" CHECK (char_length("blurhash") <= 100);--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "focus_x" real;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "focus_y" real;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_focus" CHECK (("focus_x" IS NULL) = ("focus_y" IS NULL) AND "focus_x" BETWEEN -1 AND 1 AND "focus_y" BETWEEN -1 AND 1);
