-- Every artist in their own language (issue 43): the language a person chose for the app, their mails and the server's
-- messages to them; null follows their browser's. The app checks it is one it speaks (LOCALES); the column only bounds it,
-- so adding a language needs no migration.
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_length" CHECK (char_length("language") <= 16);
