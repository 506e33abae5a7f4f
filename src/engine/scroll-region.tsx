import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, type BoxProps } from '@chakra-ui/react';

/**
 * A box that scrolls sideways when its content is wider than the screen. While it does, it is a named region the
 * keyboard can reach (WCAG 2.1.1; axe's scrollable-region-focusable): with no button inside, a keyboard user could not
 * scroll it otherwise. `data-scrolls` says so to what it holds (a table keeps its buttons in view). It is the box its
 * content is positioned in, so that what is placed absolutely inside (a header for screen readers only) scrolls and
 * clips with the rest: placed by the page instead, it lay past the table's right end and let a phone's page pan sideways.
 */
export function ScrollRegion({ label, children, ...box }: { label: string; children: ReactNode } & BoxProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return (
    <Box
      ref={ref}
      position="relative"
      overflowX="auto"
      data-scrolls={scrolls || undefined}
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label, _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' } } : {})}
      {...box}
    >
      {children}
    </Box>
  );
}
