-- Drafts keep process pictures (issue 41): a draft's picture is a finished one (process false) or a process picture
-- (sketch, lines, flats…; process true), each list in its own order. One table still, so that a picture stays in one
-- draft at most (draft_media_media_key) and the media sweep's and a discard's "attached to nothing" need no change.
ALTER TABLE "draft_media" ADD COLUMN "process" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "draft_media" DROP CONSTRAINT "draft_media_draft_id_position_pk";--> statement-breakpoint
ALTER TABLE "draft_media" ADD CONSTRAINT "draft_media_draft_id_process_position_pk" PRIMARY KEY("draft_id","process","position");--> statement-breakpoint
-- Insights (issue 42): whether a new referrer's host serves people of the fediverse is a lookup of remote_actors by
-- the host of their IRI (https://host/…): an index on that host, instead of a scan of every remote person per host.
CREATE INDEX "remote_actors_host_idx" ON "remote_actors" USING btree (split_part("iri", '/', 3));
