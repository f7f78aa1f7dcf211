-- Deleting one's own account (issue 24): its username is held back from new sign-ups for 30 days, so nobody
-- can take the name at once and pass for the person who left. One row per lower-cased name; the database
-- refuses a new account (or a rename) to a held name itself, so no code path can forget the rule. The
-- error is a unique violation of "users_username_held", which sign-up answers with 422 and its sentence.
CREATE TABLE "held_usernames" (
	"username" text PRIMARY KEY NOT NULL,
	"until" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "held_usernames_lower_case" CHECK ("held_usernames"."username" = lower("held_usernames"."username"))
);--> statement-breakpoint
CREATE FUNCTION "share_arts_username_held"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT FROM held_usernames WHERE username = lower(NEW.username) AND until > now()) THEN
		RAISE EXCEPTION 'the username % is held back after an account deletion', NEW.username
			USING ERRCODE = 'unique_violation', CONSTRAINT = 'users_username_held';
	END IF;
	RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_username_held" BEFORE INSERT OR UPDATE OF "username" ON "users" FOR EACH ROW EXECUTE FUNCTION "share_arts_username_held"();
