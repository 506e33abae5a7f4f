import type { Handlers } from '../../http/handler-types.ts';
import { mailContext } from '../offices/office-mail.ts';
import { getOffice } from '../offices/reads.ts';
import { confirmDeposits, sendDeposits } from './verification.ts';

/** The office admin verifies the office's bank account by micro-deposits (decision 0152). */
export const bankHandlers: Pick<Handlers, 'Office_StartBankVerification' | 'Office_ConfirmBankVerification'> = {
  async Office_StartBankVerification({ body, services }) {
    await sendDeposits(services.db, services.settings.piiKey, body.officeId, mailContext(services));
    return { status: 200, body: await getOffice(services.db, services.settings.piiKey, body.officeId) };
  },
  async Office_ConfirmBankVerification({ body, services }) {
    await confirmDeposits(services.db, services.settings.piiKey, body);
    return { status: 200, body: await getOffice(services.db, services.settings.piiKey, body.officeId) };
  },
};
