/** What the engine's components share down the tree: the route, the enclosing scope, the dialogs, a wizard's step, a page's missing record. */
import { createContext } from 'react';
import type { Context } from '../../core/expressions.ts';
import type { RouteInfo } from './context.ts';

export const RouteInfoContext = createContext<RouteInfo>({ name: '', path: '/', params: {}, query: {} });

/** What an enclosing screen adds to the context (dialog props, a wizard step, …). */
export const ScopeContext = createContext<Context>({});

/** A dialog on the stack: its descriptor's name and the props it was opened with. */
export interface OpenDialog {
  id: number;
  name: string;
  props: Record<string, unknown>;
  /** The page it was opened on: the address's path at that moment. */
  page: string;
}

export interface DialogControls {
  open(name: string, props: Record<string, unknown>): void;
  /** Closes the dialog with this id, or the dialog the caller sits in (the top one outside dialogs). */
  close(id?: number): void;
}
export const DialogsContext = createContext<DialogControls>({ open: () => undefined, close: () => undefined });

/**
 * What a wizard gives the screen of its current step (WizardScreen): a place for what was typed and not saved yet, so
 * Back and Next lose nothing, and a slot for the step's save, so the wizard's Next validates and submits the step's
 * form before it moves on.
 */
export interface WizardStep {
  /** What was typed into this step's form and not saved yet. */
  draft: Record<string, unknown> | undefined;
  keepDraft(data: Record<string, unknown>): void;
  /** The step's form hands over its save (true when it saved); null when it goes away. */
  provideSave(save: (() => Promise<boolean>) | null): void;
  /** Enter in the step's form acts as Next. */
  next(): void;
}
export const WizardStepContext = createContext<WizardStep | null>(null);

/** What a page shows in place of itself when its address names nothing it can show: not found, or not the visitor's. */
export type Missing = 'notFound' | 'forbidden';

/** Set by the screen at the root of a page or a dialog (ScreenView); null outside one. */
export const MissingContext = createContext<((kind: Missing) => void) | null>(null);
