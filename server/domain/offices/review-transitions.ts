import { labels } from '../../../codegen/generated/labels.ts';
import type { enrollmentStatus } from '../../db/schema.ts';

export type EnrollmentStatus = (typeof enrollmentStatus.enumValues)[number];
export type ReviewStatus = Extract<EnrollmentStatus, 'UnderReview' | 'Approved' | 'Declined' | 'OnHold' | 'WatchList' | 'Terminated'>;

/**
 * Which review decision may follow which status (decision 0150). The statuses before submission belong to the
 * office's enrollment, so nothing can be decided on them; only an office under review (or on hold) is approved or
 * declined; an approved office can be watched, held or terminated; Terminated is final.
 */
export const TRANSITIONS: Readonly<Record<EnrollmentStatus, readonly ReviewStatus[]>> = {
  New: [],
  ESignSent: [],
  ESignCompleted: [],
  Submitted: ['UnderReview', 'Approved', 'Declined', 'OnHold'],
  UnderReview: ['Approved', 'Declined', 'OnHold'],
  OnHold: ['UnderReview', 'Approved', 'Declined', 'Terminated'],
  Approved: ['WatchList', 'OnHold', 'Terminated'],
  WatchList: ['Approved', 'OnHold', 'Terminated'],
  Declined: ['UnderReview'],
  Terminated: [],
};

/** The history's reason for a submission: the office's own step, not a decision. */
export const SUBMITTED_REASON = 'The office submitted its enrollment.';

const APPROVED: readonly EnrollmentStatus[] = ['Approved', 'WatchList'];
const REVIEWED: readonly EnrollmentStatus[] = ['Approved', 'Declined', 'OnHold', 'WatchList', 'Terminated'];
const INACTIVE: readonly EnrollmentStatus[] = ['Declined', 'Terminated'];

/** The office flags a status implies: approved offices start applications, inactive ones leave public pages. */
export function flagsOf(status: EnrollmentStatus): { isApproved: boolean; isReviewed: boolean; isActive: boolean } {
  return { isApproved: APPROVED.includes(status), isReviewed: REVIEWED.includes(status), isActive: !INACTIVE.includes(status) };
}

/** The words people read for a status (its x-labels). */
export const statusWords = (status: EnrollmentStatus): string => labels.EnrollmentStatus![status] ?? status;

/** Why a decision cannot follow the office's status, in words; undefined when it can. */
export function refusal(officeName: string, from: EnrollmentStatus, to: ReviewStatus): string | undefined {
  const next = TRANSITIONS[from];
  if (next.includes(to)) return undefined;
  const now = `${officeName} is ${statusWords(from)}`;
  if (from === 'Terminated') return `${now}, which is final: it cannot become ${statusWords(to)}.`;
  if (next.length === 0) return `${now}: its enrollment has not been submitted, so it cannot become ${statusWords(to)} yet.`;
  return `${now}: it cannot become ${statusWords(to)}. From ${statusWords(from)} it can become ${next.map(statusWords).join(', ')}.`;
}
