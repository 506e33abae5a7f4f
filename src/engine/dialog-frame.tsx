import { useMemo } from 'react';
import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import { useEngine } from './services.ts';
import { loadScreen, ScreenView } from './screen-view.tsx';
import { read } from './preload.ts';
import { DialogsContext, ScopeContext, type DialogControls, type OpenDialog } from './contexts.ts';
import { useExprContext } from './use-context.ts';
import { text } from '../../core/expressions.ts';
import { HeadingLevel, Lazy } from './ui.tsx';
import { tr } from '../../core/current-language.ts';

/** One open dialog: the frame (title, width, close) around the dialog's screen; `dialog` in its context is the props. */
export default function DialogFrame({ dialog, controls }: { dialog: OpenDialog; controls: DialogControls }) {
  const services = useEngine();
  // Inside a dialog, closeDialog closes this dialog — never another one opened meanwhile.
  const own = useMemo<DialogControls>(() => ({ open: controls.open, close: (id) => controls.close(id ?? dialog.id) }), [controls, dialog.id]);
  const onClose = () => controls.close(dialog.id);
  const screen = read(loadScreen(services, dialog.name, 'dialogs'));
  const scope = useMemo(() => ({ dialog: dialog.props }), [dialog.props]);
  const context = useExprContext(scope);
  const frame = ('dialog' in screen ? screen.dialog : undefined) ?? { title: '' };
  return (
    <Dialog.Root
      open
      onOpenChange={(e) => !e.open && onClose()}
      // A dialog opened by another dialog's button would see the focus go back to that dialog's trigger as "focus
      // outside" and close at once; only Escape, the close button and clicks outside close a dialog.
      onFocusOutside={(e) => e.preventDefault()}
      placement="center"
      scrollBehavior="inside"
      lazyMount
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content w={frame.width ? `${frame.width}px` : undefined} maxW="calc(100vw - 32px)" data-dialog={dialog.name}>
            <Dialog.Header>
              <Dialog.Title>{text(frame.title, context)}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body pb="6">
              <DialogsContext.Provider value={own}>
                <ScopeContext.Provider value={scope}>
                  <HeadingLevel.Provider value={2}>
                    <Lazy>
                      <ScreenView screen={screen} />
                    </Lazy>
                  </HeadingLevel.Provider>
                </ScopeContext.Provider>
              </DialogsContext.Provider>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={tr('Close the dialog')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
