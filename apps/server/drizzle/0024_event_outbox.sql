-- Events leave through an outbox on PostgreSQL (issue 26). A pg_notify in a writer's transaction takes one
-- lock for the whole cluster from its commit until that commit is on disk, so every writer that notified
-- committed alone, one WAL flush each. Now a writer inserts its event into event_outbox, in its own
-- transaction (so an event exists only if its write committed, and a crash loses none), and a relay
-- (src/events/outbox.ts) deletes the committed rows in id order and sends them in batches: one NOTIFY per
-- batch of up to 8000 bytes, in the relay's transaction, so a batch is sent if and only if it is deleted.
--
-- share_arts_publish is the one way SQL sends an event. It writes to the outbox when the session asked for
-- it (the server's PostgreSQL connections set share_arts.outbox=on, where a relay runs); any other session
-- (PGlite, with its one process and no relay; psql; a script) sends it at once with pg_notify, as before.
-- A payload pg_notify would refuse (8000 bytes or more) is refused here too, so it can never stop the relay.
CREATE TABLE "event_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"payload" text NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION share_arts_publish(payload text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF octet_length(payload) >= 8000 THEN
    RAISE EXCEPTION 'payload string too long' USING ERRCODE = '22023';
  END IF;
  IF current_setting('share_arts.outbox', true) = 'on' THEN
    INSERT INTO event_outbox (payload) VALUES (payload);
  ELSE
    PERFORM pg_notify('share_arts_live', payload);
  END IF;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION share_arts_account_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM share_arts_publish(json_build_object('type', 'account-deleted', 'userId', OLD.id)::text);
  RETURN NULL;
END;
$$;
