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

/** The toaster's side: shows a toast and answers its id; takes one away by its id. */
export interface ToastDisplay {
  show(toast: ToastRequest): string;
  dismiss(id: string): void;
}

let display: ToastDisplay | undefined;
const queue: ToastRequest[] = [];
const waiting = new Set<() => void>();
/** The toast of each type on screen: a new one replaces it rather than piling up beside it (issue 37). */
const shown = new Map<ToastRequest['type'], string>();

function showReplacing(to: ToastDisplay, toast: ToastRequest): void {
  const before = shown.get(toast.type);
  if (before !== undefined) to.dismiss(before);
  shown.set(toast.type, to.show(toast));
}

export function push(toast: ToastRequest): void {
  if (display) showReplacing(display, toast);
  else {
    queue.push(toast);
    for (const wake of waiting) wake();
  }
}

/** Called by the toaster once loaded. */
export function attach(next: ToastDisplay): () => void {
  display = next;
  for (const toast of queue.splice(0)) showReplacing(next, toast);
  return () => {
    if (display === next) display = undefined;
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
