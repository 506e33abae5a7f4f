-- What the reports and the funded lists count of the lenders' answers (decision 0277), kept by the database whenever an
-- answer or an offer is written, so that no writer can leave it behind and a report over every office reads them
-- instead of ranking every answer again: each answer's place among those asked (the office's lender order, ties by
-- lender id) and its best offer (the highest amount, the lowest APR); each application's count of lenders asked and
-- approving, the place of the first that approved, and the discount rate of its selected offer (the first selected).
CREATE FUNCTION "report_facts"(app_ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE application_lenders al SET place = r.place, best_amount = r.best_amount, best_apr = r.best_apr
  FROM (
    SELECT x.app_id, x.lender_id,
      row_number() OVER (PARTITION BY x.app_id ORDER BY coalesce(ol.num_order, 0), x.lender_id) AS place,
      (SELECT max(coalesce(o.max_line, o.amount)) FROM offers o WHERE o.app_id = x.app_id AND o.lender_id = x.lender_id) AS best_amount,
      (SELECT min(o.apr) FROM offers o WHERE o.app_id = x.app_id AND o.lender_id = x.lender_id) AS best_apr
    FROM application_lenders x
    JOIN applications a ON a.id = x.app_id
    LEFT JOIN office_lenders ol ON ol.office_id = a.office_id AND ol.lender_id = x.lender_id
    WHERE x.app_id = ANY(app_ids)
  ) r
  WHERE al.app_id = r.app_id AND al.lender_id = r.lender_id
    AND (al.place, al.best_amount, al.best_apr) IS DISTINCT FROM (r.place, r.best_amount, r.best_apr);
  UPDATE applications a SET lenders_asked = s.asked, lenders_approved = s.approved, first_approved_place = s.first_place,
    discount_rate = s.discount_rate
  FROM (
    SELECT ids.id, count(al.app_id) AS asked, count(*) FILTER (WHERE al.status = 'Approved') AS approved,
      min(al.place) FILTER (WHERE al.status = 'Approved') AS first_place,
      (SELECT o.discount_rate FROM offers o WHERE o.app_id = ids.id AND o.is_selected AND o.discount_rate IS NOT NULL ORDER BY o.id LIMIT 1) AS discount_rate
    FROM unnest(app_ids) AS ids(id) LEFT JOIN application_lenders al ON al.app_id = ids.id
    GROUP BY ids.id
  ) s
  WHERE a.id = s.id
    AND (a.lenders_asked, a.lenders_approved, a.first_approved_place, a.discount_rate) IS DISTINCT FROM (s.asked, s.approved, s.first_place, s.discount_rate);
$$;--> statement-breakpoint
CREATE FUNCTION "report_facts_of_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_facts(ARRAY(SELECT DISTINCT app_id FROM changed));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "report_facts_of_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_facts(ARRAY[CASE WHEN TG_OP = 'DELETE' THEN OLD.app_id ELSE NEW.app_id END]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "application_lenders_report_facts_insert" AFTER INSERT ON "application_lenders"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_facts_of_new"();--> statement-breakpoint
CREATE TRIGGER "application_lenders_report_facts_change" AFTER UPDATE OF "status", "lender_id", "app_id" OR DELETE ON "application_lenders"
  FOR EACH ROW EXECUTE FUNCTION "report_facts_of_row"();--> statement-breakpoint
CREATE TRIGGER "offers_report_facts_insert" AFTER INSERT ON "offers"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_facts_of_new"();--> statement-breakpoint
CREATE TRIGGER "offers_report_facts_change" AFTER UPDATE OF "amount", "max_line", "apr", "is_selected", "discount_rate", "lender_id", "app_id" OR DELETE ON "offers"
  FOR EACH ROW EXECUTE FUNCTION "report_facts_of_row"();--> statement-breakpoint
SELECT report_facts(ARRAY(SELECT id FROM applications a WHERE EXISTS (SELECT 1 FROM application_lenders al WHERE al.app_id = a.id) OR EXISTS (SELECT 1 FROM offers o WHERE o.app_id = a.id)));
