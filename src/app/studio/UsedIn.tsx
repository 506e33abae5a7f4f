import { Button, Stack, Text } from '@chakra-ui/react';
import type { Place } from './model.ts';

/** A shared part's uses listed under it; a part used everywhere is named by its first few. */
const USES_SHOWN = 8;

/** Where a shared part is used, each a way to its place (where it can be written out to change it there only). */
export function UsedIn({ uses, lead, onGoTo }: { uses: readonly Place[]; lead: string; onGoTo(place: Place): void }) {
  return (
    <Stack gap="0" mb="2" aria-label="Used in">
      <Text fontSize="xs">{lead}</Text>
      {uses.slice(0, USES_SHOWN).map((use) => (
        <Button key={`${use.path}${use.pointer}`} size="xs" variant="plain" justifyContent="flex-start" textDecoration="underline" onClick={() => onGoTo(use)}>
          Used in {use.words}
        </Button>
      ))}
      {uses.length > USES_SHOWN ? <Text fontSize="xs">and {uses.length - USES_SHOWN} more places.</Text> : null}
    </Stack>
  );
}
