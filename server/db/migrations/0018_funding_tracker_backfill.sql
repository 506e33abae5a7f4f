-- The funding tracker's days for loans finalized before it existed (decision 0278): requested when the office
-- finalized (its log line, else the last change), initiated when the lender paid (the last change of a loan whose
-- funding is Processing) or on the funded day, and the expected deposit three calendar days after the request. The
-- server counts business days for every loan requested from now on; these old estimates only fill the column.
UPDATE "applications" AS a SET
  "funding_requested_at" = coalesce(
    (SELECT min(l."created_at") FROM "app_logs" l WHERE l."app_id" = a."id" AND l."message" = 'Application finalized'),
    a."funded_at", a."updated_at"),
  "funding_initiated_at" = CASE
    WHEN a."funding_status" = 'Completed' THEN coalesce(a."funded_at", a."updated_at")
    WHEN a."funding_status" = 'Processing' THEN a."updated_at"
  END
WHERE a."funding_status" IS NOT NULL AND a."funding_requested_at" IS NULL;
--> statement-breakpoint
UPDATE "applications" SET "expected_deposit_on" = ("funding_requested_at" AT TIME ZONE 'UTC')::date + 3
WHERE "funding_requested_at" IS NOT NULL AND "expected_deposit_on" IS NULL;
