import { useMemo } from 'react';
import { Box, Text } from '@chakra-ui/react';
import { changesOnly, diffLines } from './diff.ts';

/** The lines of a file that differ between two versions (live and a draft or a change asked), with a little context. */
export function Changes({ before, after, label = 'Changes against what is live' }: { before: string; after: string; label?: string }) {
  const lines = useMemo(() => changesOnly(diffLines(before, after)), [before, after]);
  if (lines.length === 0) return <Text>No changes against what is live.</Text>;
  return (
    <Box as="pre" fontSize="xs" fontFamily="mono" overflowX="auto" aria-label={label}>
      {lines.map((line, i) =>
        line.kind === 'gap' ? (
          <Text key={i} as="div" color="fg.muted">
            … {line.count} unchanged line(s)
          </Text>
        ) : (
          <Text key={i} as="div" bg={line.kind === 'added' ? 'green.subtle' : line.kind === 'removed' ? 'red.subtle' : undefined}>
            {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
            {line.text}
          </Text>
        ),
      )}
    </Box>
  );
}

