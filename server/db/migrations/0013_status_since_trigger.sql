-- Since when an application's status text says what it says: set by the database whenever the text changes, so no
-- path that moves an application can leave it behind. Applications from before it count from their last change.
UPDATE "applications" SET "status_since" = "updated_at";--> statement-breakpoint
CREATE FUNCTION "applications_status_since"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."status_since" := now();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "applications_status_since" BEFORE UPDATE ON "applications"
  FOR EACH ROW WHEN (OLD."status_text" IS DISTINCT FROM NEW."status_text") EXECUTE FUNCTION "applications_status_since"();
