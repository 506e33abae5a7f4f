import { formatCents, type Speaker } from '../../core/i18n.ts';
import type { CreditScoreUsed } from '../lenders/types.ts';
import type { Email, Sms } from './outbox.ts';
import { SOURCE_LANGUAGE } from '../../core/current-language.ts';
import { formatDateTime } from '../../core/formats.ts';
import { DEFAULT_OFFICE_ZONE } from '../../core/time-zones.ts';

/** The texts of the messages identity, users and passcodes send; one place, so wording stays consistent. */

/** The invitation, its expiry in the office's time zone, named (decision 0258): the invitee reads the office's clock. */
export function officeInviteEmail(input: { to: string; firstName: string; officeName: string; role: string; url: string; expiresAt: Date; timeZone: string | null; brandName: string }): Email {
  return {
    to: input.to,
    subject: `You're invited to ${input.officeName} on ${input.brandName}`,
    text:
      `Hi ${input.firstName},\n\n` +
      `You have been invited to join ${input.officeName} as ${input.role}.\n` +
      `Open the link below to accept. If you have no account yet, you will choose a password there.\n\n` +
      `${input.url}\n\n` +
      `The link works once and expires on ${formatDateTime(input.expiresAt.toISOString(), input.timeZone ?? DEFAULT_OFFICE_ZONE)}.\n`,
    links: [{ label: 'Accept the invitation', url: input.url }],
  };
}

export function passwordResetEmail(input: { to: string; firstName: string; url: string; minutes: number; brandName: string }): Email {
  return {
    to: input.to,
    subject: `Reset your ${input.brandName} password`,
    text:
      `Hi ${input.firstName},\n\n` +
      `Someone (hopefully you) asked to reset the password of this account. Open the link below to choose a new one:\n\n` +
      `${input.url}\n\n` +
      `The link works once and expires in ${input.minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.\n`,
    links: [{ label: 'Choose a new password', url: input.url }],
  };
}

export function confirmSignUpEmail(input: { to: string; firstName: string; url: string; hours: number; brandName: string }): Email {
  return {
    to: input.to,
    subject: `Finish creating your ${input.brandName} account`,
    text:
      `Hi ${input.firstName},\n\n` +
      `Open the link below to confirm your e-mail and finish creating your account:\n\n` +
      `${input.url}\n\n` +
      `The link works once and expires in ${input.hours} hours. If you did not sign up, ignore this e-mail: no account is made.\n`,
    links: [{ label: 'Finish creating your account', url: input.url }],
  };
}

/** Sent instead of a sign-up link when the e-mail has an account: only the mailbox's owner learns that it does. */
export function accountExistsEmail(input: { to: string; firstName: string; url: string; brandName: string }): Email {
  return {
    to: input.to,
    subject: `You already have a ${input.brandName} account`,
    text:
      `Hi ${input.firstName},\n\n` +
      `Someone (hopefully you) tried to create an account with this e-mail, which already has one. Sign in below; ` +
      `if you forgot your password, choose 'Forgot your password?' on the sign-in page:\n\n` +
      `${input.url}\n\n` +
      `If it was not you, ignore this e-mail: nothing changed.\n`,
    links: [{ label: 'Go to sign in', url: input.url }],
  };
}

export function failedSignInsEmail(input: { to: string; firstName: string; failures: number; minutes: number; url: string; brandName: string }): Email {
  return {
    to: input.to,
    subject: `Failed sign-ins to your ${input.brandName} account`,
    text:
      `Hi ${input.firstName},\n\n` +
      `Someone tried to sign in to your account with a wrong password ${input.failures} times in the last ${input.minutes} minutes.\n\n` +
      `If it was you, you can choose a new password with 'Forgot your password?' on the sign-in page. If it was not, your password kept them out; ` +
      `further tries from elsewhere are slowed down, while the browsers you signed in from before still sign you in at once. ` +
      `To be safe, choose a new password:\n\n${input.url}\n`,
    links: [{ label: 'Go to sign in', url: input.url }],
  };
}

export function accountCreatedEmail(input: { to: string; firstName: string; url: string; days: number; brandName: string }): Email {
  return {
    to: input.to,
    subject: `Your ${input.brandName} administrator account`,
    text:
      `Hi ${input.firstName},\n\n` +
      `An administrator account was created for you. Open the link below to choose your password:\n\n` +
      `${input.url}\n\n` +
      `The link works once and expires in ${input.days} days.\n`,
    links: [{ label: 'Choose your password', url: input.url }],
  };
}

/** To each other product owner: a change waits for their review (decision 0288). */
export function reviewAskedEmail(input: { to: string; firstName: string; asker: string; note: string; files: readonly string[]; publishAt: Date | null; url: string; brandName: string }): Email {
  return {
    to: input.to,
    subject: `${input.brandName} studio: a change waits for your review`,
    text:
      `Hi ${input.firstName},\n\n` +
      `${input.asker} asks you to review a change before it is published:\n\n` +
      `  ${input.note}\n  Files: ${input.files.join(', ')}\n` +
      (input.publishAt ? `  To be published, once approved, at ${input.publishAt.toISOString().replace('T', ' ').slice(0, 16)} UTC\n` : '') +
      `\nOpen the studio's Reviews to approve it, send it back or comment:\n\n${input.url}\n`,
    links: [{ label: 'Open the studio', url: input.url }],
  };
}

/** To the owner who asked: their change was approved (published or scheduled) or sent back (decision 0288). */
export function reviewDecidedEmail(input: { to: string; firstName: string; decider: string; note: string; outcome: 'Published' | 'Scheduled' | 'SentBack'; comment: string; url: string; brandName: string }): Email {
  const said = { Published: 'approved your change, and it is published', Scheduled: 'approved your change; it will be published at its time', SentBack: 'sent back your change' }[input.outcome];
  return {
    to: input.to,
    subject: `${input.brandName} studio: your change was ${input.outcome === 'SentBack' ? 'sent back' : 'approved'}`,
    text:
      `Hi ${input.firstName},\n\n` +
      `${input.decider} ${said}:\n\n  ${input.note}\n` +
      (input.comment ? `\nTheir comment: ${input.comment}\n` : '') +
      `\n${input.url}\n`,
    links: [{ label: 'Open the studio', url: input.url }],
  };
}

export function passcodeEmail(input: { to: string; code: string; minutes: number }, speak: Speaker): Email {
  return {
    to: input.to,
    subject: speak.say('Your passcode'),
    text: `${speak.say('Your passcode is {code}. It expires in {minutes} minutes. Do not share it with anyone; we will never ask for it.', input)}\n`,
  };
}

export function passcodeSms(input: { to: string; code: string; minutes: number }, speak: Speaker): Sms {
  return { to: input.to, text: speak.say('Your passcode is {code}. It expires in {minutes} min. Do not share it. Reply STOP to opt out.', input) };
}

// ---- the borrower journey (docs/decisions/0100) ------------------------------------------------

/*
 * What a borrower reads is written in their language (decision 0216): each text is an English source with {name}
 * placeholders, translated by screens/languages/ and filled after.
 */

export function applicationLinkEmail(input: { to: string; firstName: string; officeName: string; amount: number; url: string; hours: number }, speak: Speaker): Email {
  const { say } = speak;
  return {
    to: input.to,
    subject: say('{office}: your financing application', { office: input.officeName }),
    text:
      `${say('Hi {firstName},', input)}\n\n` +
      `${say('{office} sent you a link to apply for financing of about {amount}. Checking your offers takes a minute and does not affect your credit score.', { office: input.officeName, amount: speak.cents(input.amount) })}\n\n` +
      `${input.url}\n\n` +
      `${say('The link works once and expires in {hours} hours. If it no longer works, ask for a passcode on the same page.', input)}\n`,
    links: [{ label: say('Start my application'), url: input.url }],
  };
}

export function applicationLinkSms(input: { to: string; officeName: string; url: string }, speak: Speaker): Sms {
  return {
    to: input.to,
    text: speak.say('{office} sent you a financing application: {url} Msg&data rates may apply. Reply STOP to opt out.', { office: input.officeName, url: input.url }),
    links: [{ label: speak.say('Start my application'), url: input.url }],
  };
}

export function eSignLinkEmail(input: { to: string; firstName: string; officeName: string; lenderName: string; url: string; hours: number }, speak: Speaker): Email {
  const { say } = speak;
  return {
    to: input.to,
    subject: say('{office}: your {lender} loan documents are ready to sign', { office: input.officeName, lender: input.lenderName }),
    text:
      `${say('Hi {firstName},', input)}\n\n` +
      `${say('Your loan documents with {lender} are ready. Open the link below to review and sign them:', { lender: input.lenderName })}\n\n` +
      `${input.url}\n\n` +
      `${say('The link works once and expires in {hours} hours.', input)}\n`,
    links: [{ label: say('Review and sign'), url: input.url }],
  };
}

export function eSignLinkSms(input: { to: string; officeName: string; url: string }, speak: Speaker): Sms {
  return {
    to: input.to,
    text: speak.say('{office}: your loan documents are ready to sign: {url} Reply STOP to opt out.', { office: input.officeName, url: input.url }),
    links: [{ label: speak.say('Review and sign'), url: input.url }],
  };
}

// ---- office review and bank verification (docs/decisions/0150, 0152) ---------------------------

/** What a review status means for the office, after the status itself. */
const STATUS_NEXT: Record<string, string> = {
  UnderReview: 'We are reviewing your enrollment and will write to you when we decide.',
  Approved: 'Your office can now start financing applications. To receive funding, verify your bank account (Bank Account in the menu).',
  Declined: 'Your office cannot start financing applications.',
  OnHold: 'Your office cannot start new financing applications while it is on hold.',
  WatchList: 'Your office can go on starting financing applications.',
  Terminated: 'Your office can no longer start financing applications.',
};

export function officeStatusEmail(input: { to: string; firstName: string; officeName: string; status: string; statusWords: string; reason: string; url: string; brandName: string }): Email {
  return {
    to: input.to,
    subject: `${input.officeName} on ${input.brandName}: ${input.statusWords}`,
    text:
      `Hi ${input.firstName},\n\n` +
      `The status of ${input.officeName} on ${input.brandName} is now: ${input.statusWords}.\n\n` +
      `Reason: ${input.reason}\n\n` +
      `${STATUS_NEXT[input.status] ?? ''}\n\n` +
      `${input.url}\n`,
    links: [{ label: `Open ${input.brandName}`, url: input.url }],
  };
}

/**
 * The sandbox ACH provider is its own bank: this message stands in for the statement on which the office would
 * read the two deposits.
 */
export function bankStatementEmail(input: { to: string; firstName: string; officeName: string; accountLast4: string; amountsCents: readonly number[]; url: string; brandName: string }): Email {
  const amounts = input.amountsCents.map((cents) => formatCents(SOURCE_LANGUAGE.tag, cents));
  return {
    to: input.to,
    subject: `Bank statement: two deposits from ${input.brandName}`,
    text:
      `Hi ${input.firstName},\n\n` +
      `Sandbox bank statement of ${input.officeName}, account ending in ${input.accountLast4}:\n\n` +
      amounts.map((amount) => `  Deposit from ${input.brandName} (verification)   ${amount}\n`).join('') +
      `\nEnter both amounts on the Bank Account page to verify the account:\n\n` +
      `${input.url}\n\n` +
      `(No money moved: the sandbox ACH provider writes this message instead of making real deposits.)\n`,
    links: [{ label: 'Verify the bank account', url: input.url }],
  };
}

/** One declining lender, as the adverse-action notice names it. */
export interface DecliningLender {
  name: string;
  /** The creditor's postal address (Reg B §1002.9(a)(2)), from its lender file; null for a lender no file names now. */
  address: string | null;
  phone: string | null;
  /** The lender's principal reason; null when it gave none (the applicant may then ask for it). */
  reason: string | null;
  /** The consumer reporting agency whose report the lender used, if any. */
  bureau: { name: string; address: string; phone: string } | null;
  /** The credit score it used, if any (FCRA §615(a)(1)(B), decision 0221). */
  score: CreditScoreUsed | null;
  /**
   * A counteroffer (Reg B §1002.9(a)(1)(iv), decision 0237): the lender approved less than was asked. `openUntil` is
   * the day the offer can still be taken (a combined counteroffer and adverse-action notice); null once it expired.
   */
  countered: { approvedCents: number; askedCents: number; openUntil: string | null } | null;
}

/**
 * The one adverse-action notice for every lender that declined (Reg B §1002.9(a)(2), (b)(1), (g); FCRA §615(a);
 * docs/decisions/0214): each lender with its reasons or the right to ask for them, the ECOA notice, and the credit
 * report notice for each agency used. The same text is e-mailed and kept with the application.
 */
export function adverseActionNotice(
  input: { firstName: string; officeName: string; appliedOn: string; lenders: readonly DecliningLender[] },
  speak: Speaker,
): { subject: string; text: string } {
  const { say } = speak;
  const lines = input.lenders.map((l) => {
    const contact = [l.address, l.phone].filter(Boolean).map((part) => `, ${part}`).join('');
    const reason = l.reason
      ? say('Principal reason: {reason}', { reason: say(l.reason) })
      : say('You may ask this lender for the specific reasons within 60 days of this notice; it will tell you within 30 days of your request.');
    const counter = l.countered
      ? `${say('It approved {approved} of the {asked} you asked for.', { approved: speak.cents(l.countered.approvedCents), asked: speak.cents(l.countered.askedCents) })} ${
          l.countered.openUntil
            ? say('You can still take that offer until {date}; if you do not, this notice is its notice that the amount you asked for was not approved.', { date: speak.day(l.countered.openUntil) })
            : say('That offer was not taken.')
        } `
      : '';
    return `- ${l.name}${contact}. ${counter}${reason}`;
  });
  const countered = input.lenders.some((l) => l.countered);
  const bureaus = [...new Map(input.lenders.filter((l) => l.bureau).map((l) => [l.bureau!.name, l.bureau!])).values()];
  const fcra = bureaus.length
    ? `\n\n${say(
        'Your credit report. These decisions were based in whole or in part on information in a report from the consumer reporting agency below. ' +
          'It did not make the decisions and cannot tell you why they were made. You have the right to a free copy of your report from it if you ask within 60 days of this notice, ' +
          'and to dispute with it anything in the report that is inaccurate or incomplete.',
      )}\n` + bureaus.map((b) => `${b.name}, ${b.address}, ${b.phone}`).join('\n')
    : '';
  // Each score a lender used, with its scale, date, source and key factors (FCRA §615(a)(1)(B), §609(f)).
  const scores = input.lenders.flatMap(({ name, score }) =>
    score
      ? [
          say('Your credit score. {lender} used a credit score from {bureau} in its decision: {score}, on a scale from {low} to {high} ({model}), created on {date}. Key factors that adversely affected it: {factors}.', {
            lender: name,
            bureau: score.source,
            score: score.value,
            low: score.low,
            high: score.high,
            model: score.model,
            date: speak.day(score.date),
            factors: score.factors.map((factor) => say(factor)).join('; '),
          }),
        ]
      : [],
  );
  return {
    subject: say("Your financing application at {office}: the lenders' decisions", { office: input.officeName }),
    text:
      `${say('Dear {firstName},', { firstName: input.firstName })}\n\n` +
      `${say(
        countered
          ? 'Thank you for applying for financing at {office} on {date}. Your application was sent to the lenders below, and none of them approved it as you asked. This notice is sent on behalf of each of them.'
          : 'Thank you for applying for financing at {office} on {date}. Your application was sent to the lenders below, and none of them could approve it at this time. This notice is sent on behalf of each of them.',
        { office: input.officeName, date: speak.day(input.appliedOn) },
      )}\n\n` +
      `${lines.join('\n')}` +
      `${fcra}${scores.map((paragraph) => `\n\n${paragraph}`).join('')}\n\n` +
      `${say(
        'Your rights. The federal Equal Credit Opportunity Act prohibits creditors from discriminating against credit applicants on the basis of race, color, religion, national origin, sex, ' +
          "marital status or age (provided the applicant has the capacity to enter into a binding contract); because all or part of the applicant's income derives from any public assistance program; " +
          'or because the applicant has in good faith exercised any right under the Consumer Credit Protection Act. The federal agency that administers compliance with this law concerning these ' +
          'lenders is the Consumer Financial Protection Bureau, 1700 G Street NW, Washington, DC 20552.',
      )}\n`,
  };
}

/** A text for a borrower without an e-mail address: the written notice waits for them in their application. */
export function adverseActionSms(input: { to: string; officeName: string; lenderCount: number; countered: boolean }, speak: Speaker): Sms {
  return {
    to: input.to,
    text: speak.say(
      input.countered
        ? "{office}: {count} lenders did not approve your financing application as you asked. Your notice with each lender's reasons and your rights is in your application; ask the office for a paper copy."
        : "{office}: none of the {count} lenders could approve your financing application. Your notice with each lender's reasons and your rights is in your application; ask the office for a paper copy.",
      { office: input.officeName, count: input.lenderCount },
    ),
  };
}
