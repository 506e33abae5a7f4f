/**
 * What a wizard gives the screen of its current step (WizardScreen): a place for what was typed and not saved yet, so
 * Back and Next lose nothing, and a slot for the step's save, so the wizard's Next validates and submits the step's
 * form before it moves on.
 */
import { createContext } from 'react';

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
