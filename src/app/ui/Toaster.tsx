import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { Button, createToaster, Portal, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { attach, TOAST_MS } from './toasts.ts';
import { tr } from '../../../core/current-language.ts';
import { currentPathname } from '../../engine/use-context.ts';

const toaster = createToaster({ placement: 'top', max: 5, pauseOnPageIdle: true });

/** The page a toast belongs to (the hash route's path), by toast id. */
const pages = new Map<string, string>();

/**
 * A toast belongs to the page its action ends on: 'Your loan agreement is signed.' is raised just before the action
 * moves on to the next step, in the same turn, so the page is read once that turn is over (a navigation changes the
 * address at once).
 */
function belongsToPage(id: string): void {
  queueMicrotask(() => pages.set(id, currentPathname()));
}

/**
 * A toast ends with its page (issue 16): when the route changes, the toasts of other pages go ('… 1 try left.' is not
 * left beside the next step), and the others keep their 10 seconds.
 */
function useToastsEndWithTheirPage(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const here = currentPathname();
    for (const [id, page] of pages) {
      if (page === here) continue;
      toaster.dismiss(id);
      pages.delete(id);
    }
  }, [pathname]);
}

/**
 * The Chakra toaster, loaded on the first toast.
 */
export default function Toaster() {
  useToastsEndWithTheirPage();
  useEffect(() => {
    // The toast group subscribes to the store once its machine has started; toasts created before are lost, so the
    // queue is handed over a moment after mounting.
    let detach: (() => void) | undefined;
    const timer = setTimeout(() => {
      detach = attach({
        show: (t) => {
          const id = toaster.create({ type: t.type, title: t.title, description: t.lines.join('\n'), duration: TOAST_MS, closable: true });
          belongsToPage(id);
          return id;
        },
        dismiss: (id) => toaster.dismiss(id),
      });
    }, 50);
    return () => {
      clearTimeout(timer);
      detach?.();
    };
  }, []);
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'md' }} data-toast={toast.type}>
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title ? <Toast.Title>{toast.title}</Toast.Title> : null}
              {toast.description ? (
                <Toast.Description whiteSpace="pre-line" wordBreak="break-word">
                  {toast.description}
                </Toast.Description>
              ) : null}
            </Stack>
            <Toast.CloseTrigger asChild position="static" alignSelf="flex-start">
              <Button size="xs" variant="outline" colorPalette="gray" bg="bg" color="fg" aria-label={tr('Close')}>
                {tr('Close')}
              </Button>
            </Toast.CloseTrigger>
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
