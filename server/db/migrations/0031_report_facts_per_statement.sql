-- The answers' and offers' kept report facts (migration 0016) are brought up to date once per statement, not once per
-- row: the waterfall writes all its lenders' answers in one statement, and a row trigger ran report_facts for each of
-- them (eight runs of its two updates for eight lenders, 10–20 ms of the SubmitApp call). A statement trigger sees the
-- rows before and after in its transition tables and passes their applications at once. PostgreSQL allows transition
-- tables neither with a column list nor with two events, so each event has its trigger. An insert's or a delete's rows
-- all count; an update compares the columns the facts read, and report_facts' own update of the facts changes none of
-- them, so it ends there.
DROP TRIGGER "application_lenders_report_facts_change" ON "application_lenders";--> statement-breakpoint
DROP TRIGGER "offers_report_facts_change" ON "offers";--> statement-breakpoint
DROP FUNCTION "report_facts_of_row"();--> statement-breakpoint
DROP TRIGGER "application_lenders_report_facts_insert" ON "application_lenders";--> statement-breakpoint
DROP TRIGGER "offers_report_facts_insert" ON "offers";--> statement-breakpoint
DROP FUNCTION "report_facts_of_new"();--> statement-breakpoint
CREATE FUNCTION "report_facts_of_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids bigint[] := ARRAY(SELECT DISTINCT app_id FROM changed);
BEGIN
  IF cardinality(ids) > 0 THEN PERFORM report_facts(ids); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "report_facts_of_answers_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids bigint[] := ARRAY(
  SELECT app_id FROM (SELECT app_id, lender_id, status FROM new_rows EXCEPT SELECT app_id, lender_id, status FROM old_rows) moved
  UNION SELECT app_id FROM (SELECT app_id, lender_id, status FROM old_rows EXCEPT SELECT app_id, lender_id, status FROM new_rows) left_behind);
BEGIN
  IF cardinality(ids) > 0 THEN PERFORM report_facts(ids); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "report_facts_of_offers_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids bigint[] := ARRAY(
  SELECT app_id FROM (
    SELECT app_id, lender_id, amount, max_line, apr, is_selected, discount_rate FROM new_rows
    EXCEPT SELECT app_id, lender_id, amount, max_line, apr, is_selected, discount_rate FROM old_rows) moved
  UNION SELECT app_id FROM (
    SELECT app_id, lender_id, amount, max_line, apr, is_selected, discount_rate FROM old_rows
    EXCEPT SELECT app_id, lender_id, amount, max_line, apr, is_selected, discount_rate FROM new_rows) left_behind);
BEGIN
  IF cardinality(ids) > 0 THEN PERFORM report_facts(ids); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "application_lenders_report_facts_insert" AFTER INSERT ON "application_lenders"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_facts_of_rows"();--> statement-breakpoint
CREATE TRIGGER "application_lenders_report_facts_update" AFTER UPDATE ON "application_lenders"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "report_facts_of_answers_changed"();--> statement-breakpoint
CREATE TRIGGER "application_lenders_report_facts_delete" AFTER DELETE ON "application_lenders"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_facts_of_rows"();--> statement-breakpoint
CREATE TRIGGER "offers_report_facts_insert" AFTER INSERT ON "offers"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_facts_of_rows"();--> statement-breakpoint
CREATE TRIGGER "offers_report_facts_update" AFTER UPDATE ON "offers"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "report_facts_of_offers_changed"();--> statement-breakpoint
CREATE TRIGGER "offers_report_facts_delete" AFTER DELETE ON "offers"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_facts_of_rows"();
