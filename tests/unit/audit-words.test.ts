/** The audit log speaks in words (issue 16): no JSON, no record ids, enumeration values and lender codes named. */
import { describe, expect, it } from 'vitest';
import { detailWords } from '../../server/domain/applications/audit.ts';

describe("an audit line's detail", () => {
  it('says a change as before → after, in the enumeration words, amounts in dollars, ids left out', () => {
    const data = {
      before: { stage: 'ReadyToFinalize', amountCents: 250000, officeId: 100 },
      after: { stage: 'SubmittedForFunding', amountCents: 275000, officeId: 100 },
      requestId: '0b7d3f4e-9a51-4c1e-8f2a-1d2c3b4a5e6f',
    };
    expect(detailWords(data)).toBe('stage: Ready to finalize → Submitted for funding; amount: $2,500.00 → $2,750.00');
  });

  it('names lenders by name, says yes and no, and leaves nothing for data of ids only', () => {
    expect(detailWords({ lenders: ['gsky', 'nope'], isFinalized: true }, new Map([['gsky', 'GreenSky']]))).toBe('lenders: GreenSky, nope; finalized: yes');
    expect(detailWords({ appId: 7, fileId: 'a5a3c2e1-0000-4000-8000-000000000000' })).toBeNull();
  });
});
