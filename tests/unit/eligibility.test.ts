import { describe, expect, it } from 'vitest';
import { ageOn, ineligibility, minimumAge, patientOnlyApplication, servesState } from '../../core/eligibility.ts';
import { stateRules } from '../../server/descriptors/states.ts';
import type { LenderEligibility } from '../../codegen/generated/descriptors.ts';

const rules = stateRules();
const lender: LenderEligibility = { states: ['*'], excludedStates: ['WV'], amount: { min: 1000, max: 40000 }, creditCheck: 'soft' };
const borrower = { state: 'TX', dob: '1990-06-15', amountCents: 450_000 };

describe('screens/states.json', () => {
  it('loads, validated by its meta-schema, with each rule citing its source', () => {
    expect(rules.defaultMinimumAge).toBe(18);
    for (const [state, rule] of Object.entries(rules.states)) expect(rule!.source.length, state).toBeGreaterThan(10);
  });

  it('makes New York patient-only and no state without a rule', () => {
    expect(patientOnlyApplication(rules, 'NY')).toBe(true);
    expect(patientOnlyApplication(rules, 'TX')).toBe(false);
    expect(patientOnlyApplication(rules, null)).toBe(false);
  });
});

describe('age', () => {
  it('counts whole years, the birthday on its day', () => {
    expect(ageOn('2007-11-26', '2026-11-26')).toBe(19);
    expect(ageOn('2007-11-27', '2026-11-26')).toBe(18);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
  });

  it("takes the state's age of majority or the lender's own, whichever is higher", () => {
    expect(minimumAge(rules, {}, 'TX')).toBe(18);
    expect(minimumAge(rules, {}, 'AL')).toBe(19);
    expect(minimumAge(rules, {}, 'MS')).toBe(21);
    expect(minimumAge(rules, { minimumAge: 21 }, 'AL')).toBe(21);
    expect(minimumAge(rules, { minimumAge: 18 }, 'NE')).toBe(19);
  });
});

describe('eligibility', () => {
  it('serves every state but the excluded, or only the listed', () => {
    expect(servesState(lender, 'TX')).toBe(true);
    expect(servesState(lender, 'WV')).toBe(false);
    expect(servesState({ states: ['CA', 'TX'] }, 'TX')).toBe(true);
    expect(servesState({ states: ['CA', 'TX'] }, 'NY')).toBe(false);
  });

  it('says why a lender may not be asked, in words; null when it may', () => {
    expect(ineligibility(rules, lender, borrower, '2026-11-26')).toBeNull();
    expect(ineligibility(rules, lender, { ...borrower, state: 'WV' }, '2026-11-26')).toBe('does not lend in WV');
    expect(ineligibility(rules, lender, { ...borrower, state: 'AL', dob: '2008-01-01' }, '2026-11-26')).toBe('lends from age 19 in AL');
    expect(ineligibility(rules, lender, { ...borrower, amountCents: 99_999 }, '2026-11-26')).toBe('finances $1,000 to $40,000');
    expect(ineligibility(rules, lender, { ...borrower, amountCents: 100_000 }, '2026-11-26')).toBeNull();
    expect(ineligibility(rules, lender, { ...borrower, amountCents: 4_000_001 }, '2026-11-26')).toBe('finances $1,000 to $40,000');
  });
});
