/**
 * Picking in the studio's preview (issue 41): while the studio asks for it, the frame outlines what the pointer is
 * over, and a click tells the studio the words clicked — a field's label, a button's, a heading's, a paragraph's —
 * and the page's address, instead of doing what the click would do. The studio finds the place that holds them.
 */
const HOVER = 'data-studio-pick';
const STYLE = `[${HOVER}] { outline: 2px dashed #d97706 !important; outline-offset: 2px; cursor: crosshair !important; }`;
/** Beyond this, the words are a whole region, not a text: the studio looks for the texts within. */
const SEEN_MAX = 600;

/** The words a person clicked: a field's by its label, else the nearest element that holds words. */
export function seenWords(target: Element): string {
  const field = target.closest('input, select, textarea') as HTMLInputElement | null;
  const raw = field
    ? (field.labels?.[0]?.innerText ?? field.getAttribute('aria-label') ?? field.getAttribute('placeholder') ?? '')
    : ((target.closest('button, a, label, legend, h1, h2, h3, h4, h5, h6, p, li, th, td, dt, dd') ?? target) as HTMLElement).innerText;
  // A required field's label ends in the mark that says so, which is not part of its words.
  return raw.replace(/\s*\*\s*$/, '').trim().slice(0, SEEN_MAX);
}

let stop: (() => void) | undefined;

/** Starts or ends picking; a pick ends it. `tell` sends the studio what was picked. */
export function pickForStudio(on: boolean, tell: (picked: { text: string; path: string }) => void): void {
  stop?.();
  stop = undefined;
  if (!on) return;
  const style = document.createElement('style');
  style.textContent = STYLE;
  document.head.append(style);
  let hovered: Element | undefined;
  const over = (event: Event) => {
    hovered?.removeAttribute(HOVER);
    hovered = event.target instanceof Element ? event.target : undefined;
    hovered?.setAttribute(HOVER, '');
  };
  // A pick is not a click on the page: nothing the page would do happens (no navigation, no dialog, no focus).
  const swallow = (event: Event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  const click = (event: MouseEvent) => {
    swallow(event);
    if (!(event.target instanceof Element)) return;
    const text = seenWords(event.target);
    stop?.();
    stop = undefined;
    tell({ text, path: window.location.hash.replace(/^#/, '').split('?')[0] || '/' });
  };
  const options = { capture: true } as const;
  document.addEventListener('mouseover', over, options);
  document.addEventListener('pointerdown', swallow, options);
  document.addEventListener('mousedown', swallow, options);
  document.addEventListener('click', click, options);
  stop = () => {
    hovered?.removeAttribute(HOVER);
    style.remove();
    document.removeEventListener('mouseover', over, options);
    document.removeEventListener('pointerdown', swallow, options);
    document.removeEventListener('mousedown', swallow, options);
    document.removeEventListener('click', click, options);
  };
}
