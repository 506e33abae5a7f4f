import { useSyncExternalStore } from 'react';
import { Box, Spinner } from '@chakra-ui/react';
import { BAR_DURATION_MS, progress } from './progress.ts';

/** The loading bar at the top and, while a submit runs, an overlay over the page. */
export function ProgressOverlay() {
  const state = useSyncExternalStore(progress.subscribe, progress.get, progress.get);
  if (!state.visible) return null;
  return (
    <>
      {/* Seen, not announced: each screen says 'Loading…' in a status region of its own, inside the page's landmarks. */}
      <Box position="fixed" top="0" left="0" right="0" h="3px" zIndex="max" bg="brand.subtle" aria-hidden data-progress-bar>
        <Box h="full" bg="brand.solid" css={{ animation: `pos-progress ${BAR_DURATION_MS}ms ease-out forwards`, '@keyframes pos-progress': { from: { width: '5%' }, to: { width: '95%' } } }} />
      </Box>
      {state.overlay ? (
        <Box position="fixed" inset="0" zIndex="overlay" bg="blackAlpha.300" display="flex" alignItems="center" justifyContent="center" data-progress-overlay>
          <Spinner size="xl" color="brand.solid" aria-hidden />
        </Box>
      ) : null}
    </>
  );
}
