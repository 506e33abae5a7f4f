-- An event's commit wakes the event streams of every node at once (PostgreSQL delivers a notification at its
-- transaction's commit, never before, and never for a rollback): the payload is the event's office, '' for none.
CREATE FUNCTION "events_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pos_events', coalesce(NEW."office_id"::text, ''));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "events_notify" AFTER INSERT ON "events" FOR EACH ROW EXECUTE FUNCTION "events_notify"();
