-- Events are named (src/events/events.ts): the account deletion trigger of migration 0007 sends
-- {"type":"account-deleted","userId":…} instead of the one-letter {"e":"d","a":…}.
CREATE OR REPLACE FUNCTION share_arts_account_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('share_arts_live', json_build_object('type', 'account-deleted', 'userId', OLD.id)::text);
  RETURN NULL;
END;
$$;
