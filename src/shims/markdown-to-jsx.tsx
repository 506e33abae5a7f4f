/**
 * Stand-in for markdown-to-jsx, which @rjsf/core imports for markdown descriptions: descriptor texts are plain
 * text, so this renders its children as they are and keeps ~25 KB (gzip) out of the bundle (decision 0046).
 */
import type { ReactNode } from 'react';

export function Markdown(props: { children?: ReactNode }) {
  return <>{props.children}</>;
}

export default Markdown;
