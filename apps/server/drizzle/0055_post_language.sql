-- A post may declare its language (issue 43): a BCP 47 tag in its canonical form (`en`, `ja`, `pt-BR`), said by its
-- author in the composer, by a Mastodon client's `language`, or by a remote Note's `contentMap`; null: not said. Its
-- text carries it as `lang` (screen readers) and an outgoing Note as `contentMap`'s key. The app canonicalises the
-- tag (Intl.getCanonicalLocales); the column only bounds it (35 characters, BCP 47's practical limit). A draft keeps
-- the composer's choice until it is posted.
ALTER TABLE "posts" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_language_length" CHECK (char_length("language") <= 35);--> statement-breakpoint
ALTER TABLE "drafts" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_language_length" CHECK (char_length("language") <= 35);
