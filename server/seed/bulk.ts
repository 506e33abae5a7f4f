import { sql } from 'drizzle-orm';
import { encryptPii, last4 } from '../crypto/pii.ts';
import type { Db } from '../db/index.ts';

export interface BulkSeedOptions {
  /** Applications to create, spread evenly over the new offices. */
  apps: number;
  /** Approved offices to create (at least 1 when apps > 0). */
  offices: number;
  piiKey: Buffer;
}

/** Rows per INSERT ... SELECT; keeps each statement's memory small on PGlite. */
const BATCH = 20_000;
const LENDERS_PER_OFFICE = 5;

const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara',
  'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Christopher', 'Lisa', 'Daniel', 'Nancy',
  'Matthew', 'Betty', 'Anthony', 'Sandra', 'Mark', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua',
  'Michelle', 'Kevin', 'Carol', 'Brian', 'Amanda', 'George', 'Melissa', 'Timothy', 'Deborah', 'Ronald', 'Stephanie', 'Jason', 'Rebecca',
];
const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez',
  'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris',
  'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen',
  'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
];

/**
 * Stage mix of a mature portfolio, as cumulative shares: most applications end funded, expired or
 * declined. Only the benchmark depends on it.
 */
const STAGE_MIX: readonly (readonly [stage: string, upTo: number])[] = [
  ['Funded', 0.3], ['NotApplicable', 0.4], ['Expired', 0.5], ['OfferSelected', 0.58], ['SigningRequired', 0.64],
  ['Declined', 0.7], ['ReadyToFinalize', 0.75], ['Finalized', 0.8], ['SubmittedForFunding', 0.85], ['Cancelled', 0.9],
  ['NeedsAttention', 0.94], ['Review', 0.98], ['Refund', 1],
];

/**
 * Approved offices and applications (with refunds for the Refund stage) for benchmarks, written
 * set-based (INSERT ... SELECT over generate_series) in one transaction, with one encrypted SSN and
 * birth date shared by every row.
 * Works on PGlite and PostgreSQL; finishes with VACUUM ANALYZE so the planner sees the new volume,
 * which is why `db` must be the database itself, not a transaction.
 */
export async function seedBulk(db: Db, options: BulkSeedOptions): Promise<{ offices: number; apps: number }> {
  const { apps, offices: officeCount, piiKey } = options;
  if (!Number.isInteger(apps) || apps < 0 || !Number.isInteger(officeCount) || officeCount < 0) {
    throw new RangeError('apps and offices must be whole numbers >= 0');
  }
  if (apps > 0 && officeCount === 0) throw new RangeError('applications need at least one office');

  const ssn = '900-00-0000';
  const ssnEnc = encryptPii(piiKey, ssn);
  const dobEnc = encryptPii(piiKey, '1980-01-01');
  const firstNames = FIRST_NAMES.join(',');
  const lastNames = LAST_NAMES.join(',');
  const stages = STAGE_MIX.map(([stage]) => stage).join(',');
  const stageBounds = STAGE_MIX.map(([, upTo]) => upTo).join(',');

  await db.transaction(async (tx) => {
    const inserted = await tx.execute<{ id: number }>(sql`
      insert into offices (name, legal_name, phone, category, street_address, city, state, zip_code, time_zone,
        enrollment_status, is_enrollment_completed, is_approved, is_reviewed, submitted_at, approved_at)
      select 'Benchmark Dental ' || (base.n + g), 'Benchmark Dental ' || (base.n + g) || ' LLC', '(555) 555-0100',
        'Dental', (100 + g) || ' Main St', 'Springfield', 'IL', '62701', 'CT', 'Approved', true, true, true, now(), now()
      from generate_series(1, ${officeCount}::int) g, (select count(*)::int n from offices) base
      returning id`);
    const officeIds = inserted.rows.map((r) => Number(r.id));
    if (officeIds.length === 0) return;
    const officeList = officeIds.join(',');

    await tx.execute(sql`
      insert into office_lenders (office_id, lender_id, lender_office_id, status, num_order, is_enrollment_completed,
        is_reviewed, discount_rate)
      select o.id, l.id, upper(l.code) || '-' || o.id, 'Completed', l.n, true, true, 3.5 + l.n
      from unnest(string_to_array(${officeList}, ',')::int[]) o(id)
      cross join (select id, code, row_number() over (order by id)::int n from lenders order by id limit ${LENDERS_PER_OFFICE}) l`);

    for (let from = 0; from < apps; from += BATCH) {
      const to = Math.min(from + BATCH, apps) - 1;
      await tx.execute(sql`
        with params as (
          select string_to_array(${officeList}, ',')::int[] offices,
                 string_to_array(${firstNames}, ',') firsts,
                 string_to_array(${lastNames}, ',') lasts,
                 string_to_array(${stages}, ',') stages,
                 string_to_array(${stageBounds}, ',')::float8[] bounds,
                 (select array_agg(id order by id) from lenders) lender_ids,
                 (select array_agg(code order by id) from lenders) lender_codes,
                 (select array_agg(name order by id) from lenders) lender_names
        ),
        drawn as (
          select g, random() r_stage, random() r_amount, random() r_first, random() r_last,
                 now() - random() * interval '365 days' created_at
          from generate_series(${from}::int, ${to}::int) g
        ),
        shaped as (
          select d.*, p.*,
                 p.offices[1 + d.g % cardinality(p.offices)] office_id,
                 (select s.stage from unnest(p.stages, p.bounds) s(stage, upto) where d.r_stage <= s.upto limit 1) stage,
                 (50000 + floor(d.r_amount * 1450000))::bigint amount,
                 1 + d.g % least(greatest(cardinality(p.lender_ids), 1), ${LENDERS_PER_OFFICE}) lender_n
          from drawn d, params p
        )
        insert into applications (office_id, first_name, last_name, email, mobile_phone, street_address, city, state,
          zip_code, dob_enc, ssn_enc, last4_ssn, annual_income, employment_status, residence_status, amount, service_date,
          stage, decision_status, contract_sub_status, status_text, in_office_apply, lender_id, lender_code, lender_name,
          approved_amount, apr, term, monthly_payment, funded_amount, funded_at, funding_status, refunded_amount,
          is_expired, is_finalized, created_at, updated_at)
        select office_id,
               firsts[1 + floor(r_first * cardinality(firsts))::int],
               lasts[1 + floor(r_last * cardinality(lasts))::int],
               'borrower' || g || '@example.com',
               '(555) 555-' || lpad((g % 10000)::text, 4, '0'),
               (g % 9000 + 100) || ' Elm St', 'Springfield', 'IL', '62701',
               ${dobEnc}, ${ssnEnc}, ${last4(ssn)},
               (3000000 + (g % 120) * 100000)::bigint,
               'EmployedFull', 'Rent', amount, (created_at + interval '14 days')::date,
               stage::app_stage,
               case when stage in ('Declined') then 'Declined' when stage in ('NotApplicable', 'NeedsAttention') then 'Pending'
                    when stage = 'Review' then 'PendingReview' else 'Approved' end::lender_answer_status,
               case stage when 'SigningRequired' then 'ESignLinkSent' when 'ReadyToFinalize' then 'KBAPassed'
                          when 'Finalized' then 'Booked' when 'SubmittedForFunding' then 'FundingApproved'
                          when 'Funded' then 'FundsReleased' when 'Refund' then 'RefundCompleted'
                          else 'NotApplicable' end::contract_sub_status,
               stage, g % 3 = 0,
               case when has_lender then lender_ids[lender_n] end,
               case when has_lender then lender_codes[lender_n] end,
               case when has_lender then lender_names[lender_n] end,
               case when has_lender then amount + 100000 end,
               case when has_lender then 17.99 end,
               case when has_lender then 36 end,
               case when has_lender then round(amount * 0.0361)::bigint end,
               case when funded then amount - round(amount * 0.05)::bigint end,
               case when funded then least(created_at + interval '5 days', now()) end,
               case when funded then 'Completed'::funding_status when stage = 'SubmittedForFunding' then 'Initiated'::funding_status end,
               case when stage = 'Refund' then round(amount * 0.25)::bigint else 0 end,
               stage = 'Expired', stage in ('Finalized', 'SubmittedForFunding', 'Funded', 'Refund'),
               created_at, created_at
        from (
          select *,
                 stage in ('Funded', 'Refund') funded,
                 cardinality(lender_ids) > 0 and stage not in ('NotApplicable', 'Review', 'Declined', 'NeedsAttention', 'Expired') has_lender
          from shaped
        ) rows`);
    }

    await tx.execute(sql`
      insert into refunds (app_id, office_id, amount, reason, status, ach_status, created_at, updated_at)
      select id, office_id, refunded_amount, 'Partial refund', 'Completed', 'Settled', funded_at, funded_at
      from applications
      where stage = 'Refund' and refunded_amount > 0 and office_id = any(string_to_array(${officeList}, ',')::int[])`);

    // The funding tracker's days: requested two days after the application, paid out on the funded day.
    await tx.execute(sql`
      update applications
      set funding_requested_at = created_at + interval '2 days',
          funding_initiated_at = funded_at,
          expected_deposit_on = (created_at + interval '5 days')::date
      where funding_status is not null and office_id = any(string_to_array(${officeList}, ',')::int[])`);

    // Every lender of the office answers an application that reached the lenders (the reports read them): the chosen
    // one approved, about a third of the others too, each approval with an offer; a declined application none.
    await tx.execute(sql`
      insert into application_lenders (app_id, lender_id, status, responded_at, created_at)
      select a.id, ol.lender_id,
             case when a.decision_status = 'PendingReview' then 'PendingReview'
                  when a.decision_status = 'Declined' then 'Declined'
                  when ol.lender_id = a.lender_id or (a.id + ol.num_order) % 3 = 0 then 'Approved'
                  else 'Declined' end::lender_answer_status,
             a.created_at, a.created_at
      from applications a join office_lenders ol on ol.office_id = a.office_id
      where a.decision_status <> 'Pending' and a.office_id = any(string_to_array(${officeList}, ',')::int[])`);
    await tx.execute(sql`
      insert into offers (app_id, lender_id, product_code, product_name, term, apr, amount, min_line, max_line, monthly_payment,
        discount_rate, is_selected, created_at)
      select al.app_id, al.lender_id, 'BENCH-INST36', '36-Month Fixed Payment Plan', 36, 12.99 + ol.num_order, a.amount, 25000,
             a.amount + 100000 * ol.num_order, round(a.amount * 0.0361)::bigint, ol.discount_rate, coalesce(al.lender_id = a.lender_id, false), a.created_at
      from application_lenders al join applications a on a.id = al.app_id
      join office_lenders ol on ol.office_id = a.office_id and ol.lender_id = al.lender_id
      where al.status = 'Approved' and a.office_id = any(string_to_array(${officeList}, ',')::int[])`);
  });

  // VACUUM as well as ANALYZE: it sets the visibility map, so COUNT(*) can use index-only scans at once.
  await db.execute(sql`vacuum analyze offices, office_lenders, applications, refunds, application_lenders, offers`);
  return { offices: officeCount, apps };
}
