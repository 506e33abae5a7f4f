-- A change approved before approvals were counted had one approver: the one who decided it (decision 0291).
UPDATE "studio_reviews" AS r
SET "approvals" = jsonb_build_array(jsonb_build_object(
  'userId', r."decided_by",
  'by', u."first_name" || ' ' || u."last_name" || ' (' || u."email" || ')',
  'at', to_char(r."decided_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
))
FROM "users" AS u
WHERE u."id" = r."decided_by" AND r."state" IN ('Published', 'Scheduled', 'Failed') AND r."approvals" = '[]'::jsonb;
