/**
 * The words a preview's page shows, and marks on those the studio names (issue 41): a review compares a page live now
 * with the page under a change, and marks on each what the other does not show. Loaded only in a preview, when asked.
 */
const MARK = 'data-studio-differs';
const STYLE = `[${MARK}] { outline: 3px solid #d97706 !important; outline-offset: 2px; background: rgba(217, 119, 6, 0.12) !important; }`;

const normal = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The elements that hold words of their own, each with those words (not its children's). */
function worded(): Array<{ element: HTMLElement; words: string }> {
  const found: Array<{ element: HTMLElement; words: string }> = [];
  for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
    if (element.closest('script, style, template, [hidden], [aria-hidden="true"]') || element.getClientRects().length === 0) continue;
    const words = normal([...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join(' '));
    if (words) found.push({ element, words });
  }
  return found;
}

/** The words the page shows, each once. */
export const pageWords = (): string[] => [...new Set(worded().map(({ words }) => words))];

let style: HTMLStyleElement | undefined;

/** Marks every element whose words are one of `words` (none: the marks go). */
export function markWords(words: readonly string[]): void {
  for (const element of document.querySelectorAll(`[${MARK}]`)) element.removeAttribute(MARK);
  if (!style) {
    style = document.createElement('style');
    style.textContent = STYLE;
    document.head.append(style);
  }
  const wanted = new Set(words);
  for (const { element, words: own } of worded()) if (wanted.has(own)) element.setAttribute(MARK, '');
}
