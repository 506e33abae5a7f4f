import { useEffect } from 'react';
import { Button, createToaster, Portal, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { attach, TOAST_MS } from './toasts.ts';

const toaster = createToaster({ placement: 'top', max: 5, pauseOnPageIdle: true });

/**
 * The Chakra toaster, loaded on the first toast.
 */
export default function Toaster() {
  useEffect(() => {
    // The toast group subscribes to the store once its machine has started; toasts created before are lost, so the
    // queue is handed over a moment after mounting.
    let detach: (() => void) | undefined;
    const timer = setTimeout(() => {
      detach = attach((t) => {
        toaster.create({ type: t.type, title: t.title, description: t.lines.join('\n'), duration: TOAST_MS, closable: true });
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
              <Button size="xs" variant="outline" colorPalette="gray" bg="bg" color="fg" aria-label="Close">
                Close
              </Button>
            </Toast.CloseTrigger>
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
