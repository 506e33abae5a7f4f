/**
 * Dialogs opened by actions (screens/dialogs/<name>.json), stacked; the Chakra dialog code loads on first open. A dialog
 * belongs to the page it was opened on: going to another page closes them all.
 */
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { currentPathname } from './use-context.ts';
import { DialogsContext, type DialogControls, type OpenDialog } from './contexts.ts';

const DialogFrame = lazy(() => import('./dialog-frame.tsx'));

let nextId = 1;

export function DialogProvider({ children }: { children: ReactNode }) {
  const [stack, setStack] = useState<OpenDialog[]>([]);
  // The router keeps this provider when one route gives way to another, so it watches the page itself. A page is
  // drawn a while after the address changes: a dialog opened in between (from the header) belongs to the new page.
  const { pathname } = useLocation();
  const [shownPage, setShownPage] = useState(pathname);
  if (shownPage !== pathname) {
    setShownPage(pathname);
    if (stack.some((dialog) => dialog.page !== pathname)) setStack((s) => s.filter((dialog) => dialog.page === pathname));
  }
  const open = useCallback((name: string, props: Record<string, unknown>) => setStack((s) => [...s, { id: nextId++, name, props, page: currentPathname() }]), []);
  const close = useCallback((id?: number) => setStack((s) => (id === undefined ? s.slice(0, -1) : s.filter((d) => d.id !== id))), []);
  const controls = useMemo<DialogControls>(() => ({ open, close }), [open, close]);
  return (
    <DialogsContext.Provider value={controls}>
      {children}
      {/* One boundary per dialog: a dialog opened over another, while its code or descriptor loads, must not hide
          (and so re-open) the one below, which would hide the new one from assistive technology. */}
      {stack.map((dialog) => (
        <Suspense key={dialog.id} fallback={null}>
          <DialogFrame dialog={dialog} controls={controls} />
        </Suspense>
      ))}
    </DialogsContext.Provider>
  );
}
