/**
 * Toasts (spec §8): the error toast 'Oops! An error has occurred while saving the information.' followed by the
 * formatted errors, 10 s, at the top, with a Close button; the success toast likewise. The Chakra toaster loads on
 * the first toast (it is not needed for a page that shows none); toasts raised before that wait in a queue.
 */
import messages from '../../../schemas/messages.json';
import { errorLines } from '../api/problem.ts';
import { tr } from '../../../core/current-language.ts';

export const TOAST_MS = 10_000;

export interface ToastRequest {
  type: 'success' | 'error' | 'info';
  title: string;
  lines: string[];
}

type Show = (toast: ToastRequest) => void;
let show: Show | undefined;
const queue: ToastRequest[] = [];
const waiting = new Set<() => void>();

export function push(toast: ToastRequest): void {
  if (show) show(toast);
  else {
    queue.push(toast);
    for (const wake of waiting) wake();
  }
}

/** Called by the toaster once loaded. */
export function attach(next: Show): () => void {
  show = next;
  for (const toast of queue.splice(0)) next(toast);
  return () => {
    if (show === next) show = undefined;
  };
}

/** Lets the shell mount the toaster when the first toast arrives. */
export function onFirstToast(wake: () => void): () => void {
  if (queue.length) wake();
  waiting.add(wake);
  return () => waiting.delete(wake);
}

export const toasts = {
  success(message: string) {
    push({ type: 'success', title: message, lines: [] });
  },
  info(message: string) {
    push({ type: 'info', title: message, lines: [] });
  },
  error(error: unknown, title?: string) {
    // spec §8's first line, and the lines' own words, in the current language (a server's answer arrives in it already).
    const { saveError, serverError, unexpectedServerError } = messages.messages;
    push({ type: 'error', title: title ?? tr(saveError), lines: errorLines(error, { serverError: tr(serverError), unexpectedServerError: tr(unexpectedServerError) }) });
  },
};
