import { describe, expect, it } from 'vitest';
import { statusChip } from '../../server/domain/applications/status.ts';

/** The list's chip before an offer is taken (spec §4): it tells the office what it waits for, and never a decline too soon. */
describe('the status chip of an application not yet taken up', () => {
  const chip = (decisionStatus: string | null, isOfferMatch = false) => statusChip({ stage: 'NotApplicable', decisionStatus, isOfferMatch });

  it('waits for the borrower until they apply, then for the lenders while one still decides', () => {
    expect(chip(null)).toBe('AwaitingBorrower');
    expect(chip('Pending')).toBe('AwaitingLenders');
  });

  it('shows offers as soon as one matches, and no offers only once no lender is left deciding', () => {
    expect(chip('Pending', true)).toBe('OffersAvailable');
    expect(chip('Approved', true)).toBe('OffersAvailable');
    for (const decided of ['Declined', 'Error', 'TimedOut', 'Approved']) expect(chip(decided), decided).toBe('NoOffers');
  });
});
