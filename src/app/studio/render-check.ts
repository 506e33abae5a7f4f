/**
 * Before a publication, the studio renders every route the drafts touch in a hidden frame of the app (the preview's
 * mechanism, decision 0228), each as a visitor the route shows its page to (decision 0229), and refuses to publish
 * when one of them breaks: the engine's error boundary reports each render error to the studio. This catches what the
 * build's checks cannot see — a descriptor that is valid and still crashes a renderer. It is the studio's check: the
 * API, which cannot render, holds a publication to the build's checks.
 */
import { PREVIEW_FLAG } from '../../../core/tab-keys.ts';
import type { DescriptorSet } from '../live-descriptors.ts';
import { PREVIEW_MESSAGE } from '../preview-frame.ts';
import type { RenderVisit, VisitorChoice } from './model.ts';

/** How long the frame has to start, and a visit at most (the frame says when a page had time to render). */
const READY_MS = 15_000;
const VISIT_MS = 6_000;

/** Renders each visit, in one hidden frame per visitor; the pages that do not render, as problems. */
export async function renderProblems(set: DescriptorSet, visits: readonly RenderVisit[], brand: string): Promise<string[]> {
  const byVisitor = new Map<string, RenderVisit[]>();
  for (const visit of visits) byVisitor.set(visit.visitor.id, [...(byVisitor.get(visit.visitor.id) ?? []), visit]);
  const problems: string[] = [];
  for (const group of byVisitor.values()) problems.push(...(await renderAs(set, group[0]!.visitor, group.map((v) => v.path), brand)));
  return problems;
}

async function renderAs(set: DescriptorSet, visitor: VisitorChoice, paths: readonly string[], brand: string): Promise<string[]> {
  const frame = document.createElement('iframe');
  frame.title = 'Render check';
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  Object.assign(frame.style, { position: 'absolute', width: '412px', height: '780px', left: '-10000px', top: '0', border: '0' });
  const problems: string[] = [];
  let current = '';
  let onVisited: (() => void) | undefined;
  let onReady: (() => void) | undefined;
  const listener = (event: MessageEvent<{ type?: string; path?: string; message?: string }>) => {
    if (event.origin !== window.location.origin || event.source !== frame.contentWindow) return;
    const type = event.data?.type;
    if (type === `${PREVIEW_MESSAGE}-ready`) onReady?.();
    else if (type === `${PREVIEW_MESSAGE}-visited` && event.data.path === current) onVisited?.();
    else if (type === `${PREVIEW_MESSAGE}-error`) problems.push(`#${current} (${visitor.label}): the page does not render (${event.data.message ?? 'an error'})`);
  };
  window.addEventListener('message', listener);
  try {
    const ready = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      setTimeout(() => reject(new Error('The render check could not start the app.')), READY_MS);
    });
    frame.src = `/?${PREVIEW_FLAG}=1&brand=${encodeURIComponent(brand)}#/studio-render-check`;
    document.body.appendChild(frame);
    await ready;
    frame.contentWindow!.postMessage({ type: PREVIEW_MESSAGE, set, visitor: visitor.visitor }, window.location.origin);
    for (const path of paths) {
      current = path;
      await new Promise<void>((resolve) => {
        onVisited = resolve;
        setTimeout(resolve, VISIT_MS);
        frame.contentWindow!.postMessage({ type: `${PREVIEW_MESSAGE}-visit`, path }, window.location.origin);
      });
    }
    return problems;
  } finally {
    window.removeEventListener('message', listener);
    frame.remove();
  }
}
