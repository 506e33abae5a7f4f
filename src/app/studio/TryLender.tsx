/**
 * 'Try it' for a lender file (issue 38 item 5): a sample patient sent to the lender as the file would be published —
 * with the drafts — and what the portal would record: the decision, the offers, the reasons, and each problem of the
 * call or the mapping at its place in the file, with a way to go there when the place is the file's own (a place in a
 * shared part is named, not followed). Nothing is saved.
 */
import { useState } from 'react';
import { Box, Button, chakra, Flex, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { callOperation } from '../api/client.ts';
import { refusalOf } from '../api/problem.ts';
import type { LenderTryResult, LenderTrySample } from '../../../codegen/generated/schemas.ts';
import { labels } from '../../../codegen/generated/labels.ts';
import { toasts } from '../ui/toasts.ts';
import { placeIn, type Place } from './model.ts';
import { compactTable } from './compact-table.ts';

const SAMPLES = Object.entries(labels.LenderTrySample!) as [LenderTrySample, string][];
const money = (dollars: number) => dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

export function TryLender({ path, doc, drafts, blocked, onGoTo }: {
  path: string;
  doc: Record<string, unknown>;
  drafts: Record<string, unknown>;
  /** Why it cannot be tried now (the drafts are being checked or have problems), or undefined. */
  blocked: string | undefined;
  onGoTo(place: Place): void;
}) {
  const code = typeof doc.code === 'string' ? doc.code : path.slice('lenders/'.length, -'.json'.length);
  const [sample, setSample] = useState<LenderTrySample>('Approve');
  const [amount, setAmount] = useState('4500');
  const dollars = Number(amount);
  const valid = Number.isFinite(dollars) && dollars >= 1 && dollars <= 100_000;
  const attempt = useMutation({
    mutationFn: async () => (await callOperation('Studio_TryLender', { body: { files: drafts, code, sample, amount: dollars } })) as LenderTryResult,
    onError: (error) => {
      if (!refusalOf(error)) toasts.error(error, 'The lender could not be tried.');
    },
  });
  const result = attempt.data;
  const refusal = attempt.isError ? refusalOf(attempt.error) : undefined;

  return (
    <Stack gap="3">
      <Text fontSize="sm">Send a sample patient to this lender as the file would be published, drafts included, and see what the portal would record. Nothing is saved.</Text>
      <Flex gap="2" wrap="wrap" align="flex-end">
        <Stack gap="1">
          <chakra.label htmlFor="try-sample" fontSize="sm">
            Sample patient
          </chakra.label>
          <NativeSelect.Root size="sm" width="20rem">
            <NativeSelect.Field id="try-sample" value={sample} onChange={(e) => setSample(e.target.value as LenderTrySample)}>
              {SAMPLES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
        <Stack gap="1">
          <chakra.label htmlFor="try-amount" fontSize="sm">
            Amount asked ($)
          </chakra.label>
          <Input id="try-amount" size="sm" width="8rem" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} aria-invalid={!valid} />
        </Stack>
        <Button size="sm" colorPalette="brand" disabled={!valid || !!blocked || attempt.isPending} onClick={() => attempt.mutate()}>
          Try it
        </Button>
      </Flex>
      {!valid ? <Text fontSize="sm" color="fg.error">Enter an amount from $1 to $100,000.</Text> : null}
      {blocked ? <Text fontSize="sm">{blocked}</Text> : null}
      {attempt.isPending ? <Text fontSize="sm">Asking the lender…</Text> : null}
      {refusal ? (
        <Text role="alert" fontSize="sm" color="fg.error">
          {refusal}
        </Text>
      ) : null}
      {result && !attempt.isPending ? <TryResult result={result} doc={doc} path={path} onGoTo={onGoTo} /> : null}
    </Stack>
  );
}

function TryResult({ result, doc, path, onGoTo }: { result: LenderTryResult; doc: Record<string, unknown>; path: string; onGoTo(place: Place): void }) {
  return (
    <Stack gap="2" role="status">
      <Text fontWeight="semibold">
        {labels.LenderDecision![result.decision] ?? result.decision}, in {result.latencyMs} ms {result.sentTo ? `from ${result.sentTo}` : "from the portal's own sandbox"}
      </Text>
      {result.approvedAmount !== null ? <Text fontSize="sm">Approved up to {money(result.approvedAmount)}</Text> : null}
      {result.adverseActionReason ? <Text fontSize="sm">Reason given: {result.adverseActionReason}{result.reasonCodes.length ? ` (${result.reasonCodes.join(', ')})` : ''}</Text> : null}
      {result.problems.length > 0 ? (
        <Box role="alert" borderWidth="1px" borderColor="border.error" borderRadius="md" p="2">
          <Text fontWeight="semibold" fontSize="sm">
            What went wrong ({result.problems.length}): a patient would see this lender as not available.
          </Text>
          {result.problems.map((problem, i) => (
            <Flex key={i} gap="2" align="center" wrap="wrap" fontSize="sm">
              <Text>
                {problem.reason}
                {problem.place ? ` — at ${problem.place}` : ''} (the {problem.operation} call)
              </Text>
              {problem.place && placeIn(doc, problem.place) ? (
                <Button size="xs" variant="outline" onClick={() => onGoTo({ path, pointer: problem.place!, words: problem.place! })}>
                  Go to
                </Button>
              ) : problem.place ? (
                <Text color="fg.muted">(in a shared part this file uses)</Text>
              ) : null}
            </Flex>
          ))}
        </Box>
      ) : null}
      {result.offers.length > 0 ? (
        <chakra.table {...compactTable} aria-label="Offers the lender made">
          <thead>
            <tr>
              <chakra.th textAlign="start">Plan</chakra.th>
              <chakra.th textAlign="end">Months</chakra.th>
              <chakra.th textAlign="end">APR</chakra.th>
              <chakra.th textAlign="end">Amount</chakra.th>
              <chakra.th textAlign="end">Monthly payment</chakra.th>
              <chakra.th textAlign="end">Line</chakra.th>
            </tr>
          </thead>
          <tbody>
            {result.offers.map((offer, i) => (
              <tr key={i}>
                <td>{offer.productName}</td>
                <chakra.td textAlign="end">{offer.term}</chakra.td>
                <chakra.td textAlign="end">{offer.apr.toFixed(2)}%</chakra.td>
                <chakra.td textAlign="end">{money(offer.amount)}</chakra.td>
                <chakra.td textAlign="end">{money(offer.monthlyPayment)}</chakra.td>
                <chakra.td textAlign="end">
                  {money(offer.minLine)}–{money(offer.maxLine)}
                </chakra.td>
              </tr>
            ))}
          </tbody>
        </chakra.table>
      ) : result.decision === 'Approved' ? (
        <Text fontSize="sm">Approved, with no offer for this amount.</Text>
      ) : null}
    </Stack>
  );
}
