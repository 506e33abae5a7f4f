/**
 * A studio preview as a signed-in role (decision 0229): the frame starts with the visitor's session, and every call
 * answers a sample of the contract's answer (codegen/generated/samples.ts, loaded only here) — no one's records are
 * shown, nothing is sent, and no token is needed.
 */
import { previewVisitor } from './live-descriptors.ts';
import { session } from './session/store.ts';

let answers: Readonly<Record<string, unknown>> | undefined;

/** In a preview with a visitor: their session, and the sample answers. */
export async function startPreviewVisitor(): Promise<void> {
  const visitor = previewVisitor();
  if (!visitor) return;
  answers = (await import('../../codegen/generated/samples.ts')).samples;
  session.update(visitor.session);
}

/** The sample answers a preview's calls get; undefined outside a preview with a visitor. */
export const sampleAnswers = (): Readonly<Record<string, unknown>> | undefined => answers;
