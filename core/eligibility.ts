/**
 * Who may be asked for credit (issue 19, docs/decisions/0213): a lender's eligibility (screens/lenders/<code>.json)
 * against the borrower's state, age and amount, under the state rules (screens/states.json). UI-free: the server's
 * waterfall and any screen that explains a choice read the same answer.
 */
import type { LenderEligibility, StateRules } from '../codegen/generated/descriptors.ts';

export interface Borrower {
  /** Two-letter code of the state the borrower lives in. */
  state: string;
  /** Date of birth, yyyy-mm-dd. */
  dob: string;
  amountCents: number;
}

/** Whole years from `dob` (yyyy-mm-dd) to `today` (yyyy-mm-dd): the birthday counts on its day. */
export function ageOn(dob: string, today: string): number {
  const [by, bm, bd] = dob.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** The age from which a borrower in `state` may contract with this lender: the state's age of majority or the lender's own, whichever is higher. */
export function minimumAge(rules: StateRules, eligibility: Pick<LenderEligibility, 'minimumAge'>, state: string): number {
  return Math.max(rules.states[state]?.minimumAge ?? rules.defaultMinimumAge, eligibility.minimumAge ?? 0);
}

export function servesState(eligibility: Pick<LenderEligibility, 'states' | 'excludedStates'>, state: string): boolean {
  if (eligibility.excludedStates?.includes(state)) return false;
  return eligibility.states.includes('*') || eligibility.states.includes(state);
}

const dollars = (value: number) => `$${value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;

/** Why the lender may not be asked about this borrower, in words; null when it may. */
export function ineligibility(rules: StateRules, eligibility: LenderEligibility, borrower: Borrower, today: string): string | null {
  if (!servesState(eligibility, borrower.state)) return `does not lend in ${borrower.state}`;
  const age = minimumAge(rules, eligibility, borrower.state);
  if (ageOn(borrower.dob, today) < age) return `lends from age ${age} in ${borrower.state}`;
  const { min, max } = eligibility.amount;
  if (borrower.amountCents < Math.round(min * 100) || borrower.amountCents > Math.round(max * 100)) return `finances ${dollars(min)} to ${dollars(max)}`;
  return null;
}

/** Does the state want the patient alone to fill in the application (no office staff)? */
export function patientOnlyApplication(rules: StateRules, state: string | null | undefined): boolean {
  return !!state && rules.states[state]?.patientOnlyApplication === true;
}
