/**
 * 'Find a text you see' (issue 41): any words of the product, in any language, or a name, across every file with the
 * drafts in it; each place found opens in the editor, a shared part's with the places that use it. The preview's pick
 * lands here too: its words, the page's places first.
 */
import { useMemo } from 'react';
import { Box, Button, chakra, Input, Stack, Text } from '@chakra-ui/react';
import { findTexts, FOUND_LIMIT, type Found } from './find.ts';
import type { Doc, Place } from './model.ts';
import { UsedIn } from './UsedIn.tsx';

/** What is searched: typed words, or words picked in the preview with the files of the page it showed. */
export type Search = { query: string } | { seen: string; near: ReadonlySet<string> };

export function Find({ docs, search, onSearch, onGoTo }: { docs: ReadonlyMap<string, Doc>; search: Search; onSearch(search: Search): void; onGoTo(place: Place): void }) {
  const results = useMemo(() => ('seen' in search ? findTexts(docs, { seen: search.seen }, search.near) : findTexts(docs, { query: search.query })), [docs, search]);
  const words = 'seen' in search ? search.seen : search.query;
  return (
    <Stack gap="1">
      <chakra.label htmlFor="studio-find" fontSize="sm" fontWeight="medium">
        Find a text you see, in any language, or a name
      </chakra.label>
      <Input id="studio-find" size="sm" type="search" placeholder="Apply for financing" value={words} onChange={(e) => onSearch({ query: e.target.value })} />
      {'seen' in search ? <Text fontSize="xs">Picked in the preview.</Text> : null}
      {words.trim().length >= 2 ? (
        <Box as="ul" listStyleType="none" maxH="40vh" overflowY="auto" aria-label="Places found">
          {results.length === 0 ? (
            <Text as="li" fontSize="sm">
              {'seen' in search ? 'No file holds these words: they come from an answer (a name, an amount), not from a file.' : 'No file holds these words.'}
            </Text>
          ) : null}
          {results.map((result) => (
            <FoundPlace key={`${result.place.path}${result.place.pointer}`} result={result} onGoTo={onGoTo} />
          ))}
          {results.length === FOUND_LIMIT ? (
            <Text as="li" fontSize="xs" color="fg.muted">
              The first {FOUND_LIMIT} places: more words find fewer.
            </Text>
          ) : null}
        </Box>
      ) : null}
    </Stack>
  );
}

function FoundPlace({ result, onGoTo }: { result: Found; onGoTo(place: Place): void }) {
  return (
    <Box as="li" borderBottomWidth="1px" py="1">
      <Button size="xs" variant="ghost" h="auto" py="1" w="full" justifyContent="flex-start" whiteSpace="normal" textAlign="start" onClick={() => onGoTo(result.place)}>
        <Stack gap="0" align="flex-start">
          <Text fontSize="sm">“{result.text}”</Text>
          <Text fontSize="xs" color="fg.muted">
            {result.language ? `${result.language} translation, ` : ''}
            {result.uses ? 'shared part, ' : ''}
            {result.place.words}
          </Text>
        </Stack>
      </Button>
      {result.uses?.length ? <UsedIn uses={result.uses} lead="The same in every file that uses it. To change it in one file only, write it out there:" onGoTo={onGoTo} /> : null}
    </Box>
  );
}
