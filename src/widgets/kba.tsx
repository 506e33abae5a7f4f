import { chakra, Stack, Text } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import type { Binding } from '../../codegen/generated/descriptors.ts';
import type { KbaQuestion as Question } from '../../codegen/generated/schemas.ts';
import { useExprContext } from '../engine/use-context.ts';
import { useOperationQuery } from '../engine/queries.ts';

interface Answer {
  questionId: string;
  choiceId: string;
}

/**
 * Identity questions (KBA): the quiz comes from the widget's `source` (App_GetKBA), one radio group per question; the
 * value is the answers array of App_SubmitKBA, [{questionId, choiceId}] in the quiz's order.
 */
export default function KbaWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, options, label } = props;
  const context = useExprContext();
  const query = useOperationQuery((options as { source?: Binding }).source, context);
  const questions = ((query.data as { questions?: Question[] } | undefined)?.questions ?? []) as Question[];
  const answers = (Array.isArray(value) ? value : []) as Answer[];
  const chosen = new Map(answers.map((a) => [a.questionId, a.choiceId]));
  const choose = (questionId: string, choiceId: string) => {
    const next = new Map(chosen).set(questionId, choiceId);
    onChange(questions.filter((q) => next.has(q.id)).map((q) => ({ questionId: q.id, choiceId: next.get(q.id)! })));
  };
  if (query.isLoading) return <Text color="fg.muted">Loading the questions…</Text>;
  return (
    <Stack id={id} gap="5" role="group" aria-label={label} data-kba>
      {questions.map((q, qi) => (
        <chakra.fieldset key={q.id} borderWidth="1px" borderColor="border" borderRadius="md" p="4" data-question={q.id}>
          <chakra.legend fontWeight="semibold" px="1">
            {qi + 1}. {q.text}
          </chakra.legend>
          <Stack gap="2" mt="1">
            {q.choices.map((c) => {
              const inputId = `${id}-${q.id}-${c.id}`;
              return (
                <chakra.label key={c.id} htmlFor={inputId} display="flex" alignItems="center" gap="2.5" cursor={disabled || readonly ? 'not-allowed' : 'pointer'}>
                  <chakra.input
                    type="radio"
                    id={inputId}
                    name={`${id}-${q.id}`}
                    value={c.id}
                    checked={chosen.get(q.id) === c.id}
                    disabled={disabled || readonly}
                    onChange={() => choose(q.id, c.id)}
                    w="4"
                    h="4"
                    css={{ accentColor: 'var(--chakra-colors-brand-solid)' }}
                  />
                  <Text as="span">{c.text}</Text>
                </chakra.label>
              );
            })}
          </Stack>
        </chakra.fieldset>
      ))}
    </Stack>
  );
}
