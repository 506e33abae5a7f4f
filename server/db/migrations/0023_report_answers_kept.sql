-- Approvals by lender over a period without joining the applications (decision 0282): each lender's answer keeps its
-- application's day, office and author, copied by the database as the answer is written (they never change), and
-- whether it was the only approval of the application, kept with the answers' other report facts (migration 0016).
CREATE FUNCTION "application_lender_of_app"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.created_at, a.office_id, a.created_by INTO NEW.app_created_at, NEW.app_office_id, NEW.app_created_by
  FROM applications a WHERE a.id = NEW.app_id;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "application_lenders_of_app" BEFORE INSERT OR UPDATE OF "app_id" ON "application_lenders"
  FOR EACH ROW EXECUTE FUNCTION "application_lender_of_app"();--> statement-breakpoint
UPDATE application_lenders al SET app_created_at = a.created_at, app_office_id = a.office_id, app_created_by = a.created_by
  FROM applications a WHERE a.id = al.app_id;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_facts"(app_ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE application_lenders al SET place = r.place, best_amount = r.best_amount, best_apr = r.best_apr, approved_alone = r.alone
  FROM (
    SELECT x.app_id, x.lender_id,
      row_number() OVER (PARTITION BY x.app_id ORDER BY coalesce(ol.num_order, 0), x.lender_id) AS place,
      (SELECT max(coalesce(o.max_line, o.amount)) FROM offers o WHERE o.app_id = x.app_id AND o.lender_id = x.lender_id) AS best_amount,
      (SELECT min(o.apr) FROM offers o WHERE o.app_id = x.app_id AND o.lender_id = x.lender_id) AS best_apr,
      x.status = 'Approved' AND count(*) FILTER (WHERE x.status = 'Approved') OVER (PARTITION BY x.app_id) = 1 AS alone
    FROM application_lenders x
    JOIN applications a ON a.id = x.app_id
    LEFT JOIN office_lenders ol ON ol.office_id = a.office_id AND ol.lender_id = x.lender_id
    WHERE x.app_id = ANY(app_ids)
  ) r
  WHERE al.app_id = r.app_id AND al.lender_id = r.lender_id
    AND (al.place, al.best_amount, al.best_apr, al.approved_alone) IS DISTINCT FROM (r.place, r.best_amount, r.best_apr, r.alone);
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
UPDATE application_lenders al SET approved_alone = true
  FROM applications a WHERE a.id = al.app_id AND al.status = 'Approved' AND a.lenders_approved = 1;--> statement-breakpoint
-- What the reports read of a period, in narrow indexes they answer from alone (once the rows are vacuumed), by office
-- and day: one office's period is a range of them, every office's a scan of the whole narrow index instead of the rows.
CREATE INDEX "applications_report_idx" ON "applications" ("office_id", "created_at")
  INCLUDE ("id", "created_by", "stage", "funded_at", "lender_id", "lenders_asked", "lenders_approved", "first_approved_place", "in_office_apply");--> statement-breakpoint
CREATE INDEX "application_lenders_report_idx" ON "application_lenders" ("app_office_id", "app_created_at")
  INCLUDE ("app_created_by", "lender_id", "status", "best_amount", "best_apr", "approved_alone");--> statement-breakpoint
CREATE INDEX "applications_funded_report_idx" ON "applications" ("office_id", "funded_at")
  INCLUDE ("created_by", "lender_id", "funded_amount", "discount_rate") WHERE "funded_at" IS NOT NULL;
