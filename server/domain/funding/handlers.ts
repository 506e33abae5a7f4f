import type { Handlers } from '../../http/handler-types.ts';
import { contentDisposition } from '../files/content.ts';
import { CSV_TYPE, csvFile, dollars, fileDate, text, value } from '../csv.ts';
import { markFunded } from './mark.ts';
import { allFunded, fundedDate, listFunded, netCents } from './rows.ts';

type Funding = 'App_GetOfficeFundedApps' | 'App_GetOfficeFundedAppsCSV' | 'AdminApps_GetFundedApps' | 'AdminApps_MarkAppsFunded';

const OFFICE_CSV_HEADER = [
  'Application ID', 'First Name', 'Last Name', 'Lender', 'Contract ID', 'Loan Amount', 'Funded Amount', 'Discount Amount',
  'Net Funded Amount', 'Refunded Amount', 'Funded Date', 'Funding Status', 'Stage',
] as const;

const csvHeaders = (fileName: string) => ({ 'content-type': CSV_TYPE, 'content-disposition': contentDisposition('attachment', fileName) });

/** Funded lists for offices and platform admins, the CSV download and marking applications funded (decision 0081). */
export const fundingHandlers: Pick<Handlers, Funding> = {
  async App_GetOfficeFundedApps({ body, services }) {
    return { status: 200, body: await listFunded(services.db, { officeId: body.officeId }, body) };
  },

  async App_GetOfficeFundedAppsCSV({ body, services }) {
    const rows = await allFunded(services.db, { officeId: body.officeId }, body);
    const file = csvFile(
      OFFICE_CSV_HEADER,
      rows.map((r) => [
        value(r.id), text(r.firstName), text(r.lastName), text(r.lenderName), text(r.contractId), dollars(r.amount), dollars(r.fundedAmount),
        dollars(r.discountAmount), dollars(netCents(r)), dollars(r.refundedAmount), value(fundedDate(r.fundedAt)), text(r.fundingStatus), text(r.stage),
      ]),
    );
    return { status: 200, body: file, headers: csvHeaders(`funded-apps-${body.officeId}-${fileDate(new Date())}.csv`) };
  },

  async AdminApps_GetFundedApps({ body, services }) {
    return { status: 200, body: await listFunded(services.db, { officeId: body.officeId, forFunding: body.forFunding === true }, body) };
  },

  async AdminApps_MarkAppsFunded({ body, caller, services }) {
    const { file } = await markFunded(services.db, caller, body);
    const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
    return { status: 200, body: file, headers: csvHeaders(`funding-${stamp}.csv`) };
  },
};
