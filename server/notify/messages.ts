import type { Email, Sms } from './outbox.ts';

/** The texts of the messages identity, users and passcodes send; one place, so wording stays consistent. */

export function officeInviteEmail(input: { to: string; firstName: string; officeName: string; role: string; url: string; expiresAt: Date }): Email {
  return {
    to: input.to,
    subject: `You're invited to ${input.officeName} on the Patient Financing Portal`,
    text:
      `Hi ${input.firstName},\n\n` +
      `You have been invited to join ${input.officeName} as ${input.role}.\n` +
      `Open the link below to accept. If you have no account yet, you will choose a password there.\n\n` +
      `${input.url}\n\n` +
      `The link works once and expires on ${input.expiresAt.toUTCString()}.\n`,
    links: [{ label: 'Accept the invitation', url: input.url }],
  };
}

export function passwordResetEmail(input: { to: string; firstName: string; url: string; minutes: number }): Email {
  return {
    to: input.to,
    subject: 'Reset your Patient Financing Portal password',
    text:
      `Hi ${input.firstName},\n\n` +
      `Someone (hopefully you) asked to reset the password of this account. Open the link below to choose a new one:\n\n` +
      `${input.url}\n\n` +
      `The link works once and expires in ${input.minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.\n`,
    links: [{ label: 'Choose a new password', url: input.url }],
  };
}

export function accountCreatedEmail(input: { to: string; firstName: string; url: string; days: number }): Email {
  return {
    to: input.to,
    subject: 'Your Patient Financing Portal administrator account',
    text:
      `Hi ${input.firstName},\n\n` +
      `An administrator account was created for you. Open the link below to choose your password:\n\n` +
      `${input.url}\n\n` +
      `The link works once and expires in ${input.days} days.\n`,
    links: [{ label: 'Choose your password', url: input.url }],
  };
}

export function passcodeEmail(input: { to: string; code: string; minutes: number }): Email {
  return {
    to: input.to,
    subject: 'Your passcode',
    text: `Your passcode is ${input.code}. It expires in ${input.minutes} minutes. Do not share it with anyone; we will never ask for it.\n`,
  };
}

export function passcodeSms(input: { to: string; code: string; minutes: number }): Sms {
  return {
    to: input.to,
    text: `Your passcode is ${input.code}. It expires in ${input.minutes} min. Do not share it. Reply STOP to opt out.`,
  };
}
