/**
 * Each language's state with the drafts (issue 37, decision 0255): up to date, or the texts out of date in it — a source
 * text changed where the language translated the one before, so its readers would see the new one in English. Texts
 * the drafts make out of date are published only when the owner says so here.
 */
import { Box, Button, chakra, Stack, Text } from '@chakra-ui/react';
import type { StudioCheck } from '../../../codegen/generated/schemas.ts';
import type { Place } from './model.ts';

export type LanguageStates = StudioCheck['languages'];

/** The languages whose texts the drafts make out of date: publishing them so needs the owner's choice. */
export const madeOutOfDate = (languages: LanguageStates) => languages.filter((language) => language.outOfDate.some((entry) => entry.draft));

export function Languages({ languages, chosen, onChoose, onGoTo }: { languages: LanguageStates; chosen: boolean; onChoose(chosen: boolean): void; onGoTo(place: Place): void }) {
  if (languages.length === 0) return null;
  const affected = madeOutOfDate(languages);
  return (
    <Box role="status" aria-label="Languages" borderWidth="1px" borderColor={affected.length ? 'border.warning' : 'border'} borderRadius="md" p="2">
      <Stack gap="2">
        {languages.map(({ locale, name, coverage, outOfDate }) => (
          <Stack key={locale} gap="1">
            <Text fontWeight="semibold" fontSize="sm">
              {outOfDate.length === 0 ? `${name}: up to date.` : `${name}: ${outOfDate.length} text(s) out of date; its readers see them in English.`}
            </Text>
            <Text fontSize="sm">
              Borrowers' texts translated: {coverage.translated.toLocaleString('en-US')} of {coverage.total.toLocaleString('en-US')} ({coverage.total ? Math.floor((coverage.translated / coverage.total) * 100) : 100} %).
            </Text>
            {coverage.files.length ? (
              <chakra.details fontSize="sm">
                <chakra.summary cursor="pointer">Files with texts not translated into {name} ({coverage.files.length})</chakra.summary>
                {coverage.files.map(({ file, missing }) => (
                  <Text key={file}>
                    {file.replace(/^screens\//, '')}: {missing}
                  </Text>
                ))}
              </chakra.details>
            ) : null}
            {outOfDate.map((entry) => (
              <Text key={`${entry.place} ${entry.text}`} fontSize="sm">
                '{entry.text}' (was '{entry.was}', translated '{entry.translation}'){entry.draft ? ', changed by the drafts' : ', live'} — {entry.place}
              </Text>
            ))}
            {outOfDate.length ? (
              <Button size="xs" variant="outline" alignSelf="flex-start" onClick={() => onGoTo({ path: `languages/${locale}.json`, pointer: '/texts', words: `languages/${locale}.json` })}>
                Translate in languages/{locale}.json
              </Button>
            ) : null}
          </Stack>
        ))}
        {affected.length ? (
          <chakra.label display="flex" gap="2" alignItems="center" fontSize="sm">
            <chakra.input type="checkbox" checked={chosen} onChange={(e) => onChoose(e.target.checked)} />
            Publish with these texts out of date: {affected.map((language) => language.name).join(', ')} readers see them in English until they are translated
          </chakra.label>
        ) : null}
      </Stack>
    </Box>
  );
}
