import type { components } from '../../../codegen/generated/api.ts';
import type { Handlers } from '../../http/handler-types.ts';
import type { Db } from '../../db/index.ts';
import { isInternal, type Caller } from '../../http/caller.ts';
import { contentDisposition } from '../files/content.ts';
import { CSV_TYPE, csvFile, fileDate, text, value, type Cell } from '../csv.ts';
import { labels } from '../../../codegen/generated/labels.ts';
import { reportChoices } from './choices.ts';
import { holding, locationsInView } from '../users/locations.ts';
import { approvals, funnel, volume, type ReportScope } from './figures.ts';
import { reportPeriod, usDay, type ReportQuery } from './period.ts';

type Schemas = components['schemas'];

/** The office reported on, or rolled up with the organization's others the caller reports on (decision 0281); none: every office. */
async function officesReported(db: Db, caller: Caller, query: ReportQuery): Promise<number[] | undefined> {
  if (query.officeId === undefined) return undefined;
  if (!query.allLocations) return [query.officeId];
  return locationsInView(db, caller, query.officeId, isInternal(caller) ? () => true : holding('seeReports'));
}

async function report(db: Db, caller: Caller, query: ReportQuery): Promise<Schemas['Report']> {
  const period = reportPeriod(query);
  const officeIds = await officesReported(db, caller, query);
  const scope: ReportScope = { officeIds, userId: query.userId, lenderId: query.lenderId };
  const [steps, approved, funded, choices] = await Promise.all([
    funnel(db, period, scope),
    approvals(db, period, scope),
    volume(db, period, scope),
    reportChoices(db, caller, query.officeId, officeIds),
  ]);
  return {
    fromDate: usDay(period.from),
    toDate: usDay(new Date(period.until.getTime() - 86_400_000)),
    interval: period.interval,
    funnel: steps,
    ...approved,
    ...funded,
    choices,
  };
}

const percent = (share: number | null): Cell => value(share);
const money = (dollars: number | null): Cell => value(dollars === null ? null : dollars.toFixed(2));

/** Each report's table as CSV: the same rows the page shows, in the page's words (screens/pages/reports.json), units in the header. */
const SECTIONS: { [S in Schemas['ReportSection']]: { header: string[]; rows(report: Schemas['Report']): Cell[][] } } = {
  funnel: {
    header: ['Step', 'Applications', 'Kept from the step before (%)', 'Of those started (%)'],
    rows: (r) => r.funnel.map((row) => [text(labels.FunnelStep![row.step] ?? row.step), value(row.count), percent(row.shareOfPrevious), percent(row.shareOfStarted)]),
  },
  lenders: {
    header: ['Lender', 'Asked', 'Approved', 'Approval rate (%)', 'Approved by this lender alone', 'Average approved amount', 'Average APR (%)'],
    rows: (r) =>
      r.lenders.map((row) => [
        text(row.lenderName), value(row.asked), value(row.approved), percent(row.approvalRate), value(row.approvedOnly), money(row.averageApprovedAmount), value(row.averageApr),
      ]),
  },
  places: {
    header: ['First lender that approved', 'Patients', 'Share (%)'],
    rows: (r) => r.places.map((row) => [text(row.place === null ? 'None approved' : `Lender ${row.place} in your order`), value(row.count), percent(row.share)]),
  },
  volume: {
    header: ['Period starting', 'Funded', 'Financed', 'Discount fees', 'Net to the office', 'Refunds'],
    rows: (r) => r.volume.map((row) => [value(row.periodStart), value(row.funded), money(row.financed), money(row.discountFees), money(row.net), money(row.refunds)]),
  },
};

/** Reports for office admins and platform admins (issue 40, decision 0277). */
export const reportHandlers: Pick<Handlers, 'Reports_GetReport' | 'Reports_GetReportCSV'> = {
  async Reports_GetReport({ body, caller, services }) {
    return { status: 200, body: await report(services.db, caller, body) };
  },

  async Reports_GetReportCSV({ params, body, caller, services }) {
    const found = await report(services.db, caller, body);
    const section = SECTIONS[params.section];
    const where = body.officeId === undefined ? 'all-offices' : `${body.allLocations ? 'locations-of-' : ''}office-${body.officeId}`;
    return {
      status: 200,
      body: csvFile(section.header, section.rows(found)),
      headers: { 'content-type': CSV_TYPE, 'content-disposition': contentDisposition('attachment', `report-${params.section}-${where}-${fileDate(new Date())}.csv`) },
    };
  },
};
