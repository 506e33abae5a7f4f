import { useState } from 'react';
import { Badge, Box, Button, chakra, HStack, Stack, Text } from '@chakra-ui/react';
import type { StudioPublication } from '../../../codegen/generated/schemas.ts';
import { compactTable } from './compact-table.ts';

/** What the owner asks of the history: an earlier state made live again (0: as deployed), or one publication undone. */
export type HistoryStep = { kind: 'restore' | 'revert'; id: number };

const question = (step: HistoryStep, publications: StudioPublication[]) => {
  if (step.kind === 'revert') {
    const files = publications.find((p) => p.id === step.id)?.changed ?? [];
    const one = files.length === 1;
    return `Undo publication ${step.id}? ${files.join(', ')} ${one ? 'goes' : 'go'} back to what ${one ? 'it was' : 'they were'} before it; everything else stays as it is live now.`;
  }
  return step.id === 0
    ? 'Make the files as deployed live again? Every publication since is taken back.'
    : `Make publication ${step.id} live again? Every file goes back to what it was then.`;
};

/**
 * The publications, newest first. Making an earlier one live again, or undoing one, needs the note of what changes and
 * why (the field under the tabs), and a second click that says what will happen.
 */
export function History({
  publications,
  note,
  onConfirm,
  onSee,
  busy,
}: {
  publications: StudioPublication[];
  note: string;
  onConfirm(step: HistoryStep): void;
  /** Shows a publication's pages in the preview, as they were (what a borrower who was shown it read, decision 0289). */
  onSee(publication: StudioPublication): void;
  busy: boolean;
}) {
  const [asked, setAsked] = useState<HistoryStep | null>(null);
  if (publications.length === 0) return <Text>Nothing was published yet: the files are as deployed.</Text>;
  const noted = note.trim() !== '';
  const ask = (step: HistoryStep) => setAsked(step);
  return (
    <Stack gap="2">
      {noted ? null : <Text fontSize="sm" color="fg.muted">Write what changes, and why, in the note below first: it is kept in the history.</Text>}
      {asked ? (
        <Box role="alertdialog" aria-label="Confirm" borderWidth="1px" borderColor="orange.solid" borderRadius="md" p="3">
          <Text mb="2">{question(asked, publications)}</Text>
          <Text fontSize="sm" mb="3">Note: {note.trim()}</Text>
          <HStack>
            <Button size="sm" colorPalette="orange" disabled={busy || !noted} onClick={() => {
                onConfirm(asked);
                setAsked(null);
              }}>
              {asked.kind === 'revert' ? 'Undo it' : 'Make it live'}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setAsked(null)}>
              Cancel
            </Button>
          </HStack>
        </Box>
      ) : (
        <Button size="sm" variant="outline" alignSelf="flex-start" disabled={busy || !noted} onClick={() => ask({ kind: 'restore', id: publications[1]?.id ?? 0 })}>
          Roll back the last publication
        </Button>
      )}
      {/* The studio's middle column is narrow: the list scrolls sideways rather than hide its buttons. */}
      <Box overflowX="auto">
        <chakra.table {...compactTable}>
          <thead>
            <tr>
              <chakra.th textAlign="start">When</chakra.th>
              <chakra.th textAlign="start">Who</chakra.th>
              <chakra.th textAlign="start">Note</chakra.th>
              <chakra.th textAlign="start">Files</chakra.th>
              <chakra.th />
            </tr>
          </thead>
          <tbody>
            {publications.map((p, index) => (
              <tr key={p.id}>
                <td>
                  {p.id}. {new Date(p.publishedAt).toLocaleString()}
                </td>
                <td>
                  {p.publishedBy}
                  {p.approvedBy ? `, approved by ${p.approvedBy}` : ''}
                </td>
                <td>
                  {p.note}
                  {p.restoredFrom !== null ? ` (restored ${p.restoredFrom === 0 ? 'the deployed files' : `publication ${p.restoredFrom}`})` : ''}
                </td>
                <td>{p.changed.join(', ')}</td>
                <td>
                  <Stack gap="1" align="flex-end">
                    {index === 0 ? (
                      <Badge>Live</Badge>
                    ) : (
                      <Button size="xs" variant="outline" disabled={busy || !noted} onClick={() => ask({ kind: 'restore', id: p.id })}>
                        Make live again
                      </Button>
                    )}
                    <Button size="xs" variant="outline" disabled={busy || !noted} aria-label={`Undo publication ${p.id}`} onClick={() => ask({ kind: 'revert', id: p.id })}>
                      Undo
                    </Button>
                    <Button size="xs" variant="ghost" aria-label={`See publication ${p.id} as it was`} onClick={() => onSee(p)}>
                      See it as it was
                    </Button>
                  </Stack>
                </td>
              </tr>
            ))}
          </tbody>
        </chakra.table>
      </Box>
    </Stack>
  );
}
