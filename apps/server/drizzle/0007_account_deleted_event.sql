-- Every server process remembers which accounts exist (src/modules/users/accounts.ts). Users are deleted
-- only by SQL, so the database itself tells the processes: event 'd' on the live channel, sent when the
-- deleting transaction commits.
CREATE FUNCTION share_arts_account_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('share_arts_live', json_build_object('e', 'd', 'a', OLD.id)::text);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER users_deleted_event AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION share_arts_account_deleted();
