/**
 * The studio's reviews (four eyes, decision 0288): every change asked for review, where it stands and what was said;
 * for one still waiting, its files' changed lines and its pages before and after, side by side, as any role and in any
 * brand; and what the owner may do with it — approve (at once or at its time), send back, comment, or withdraw their own.
 */
import { useCallback, useMemo, useState } from 'react';
import { Badge, Box, Button, Flex, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { WideWindow } from './WideWindow.tsx';
import { useMutation } from '@tanstack/react-query';
import { callOperation } from '../api/client.ts';
import type { StudioReview } from '../../../codegen/generated/schemas.ts';
import { labels } from '../../../codegen/generated/labels.ts';
import { toasts } from '../ui/toasts.ts';
import { Changes } from './Changes.tsx';
import { DEVICES, PreviewFrame, type Device } from './Preview.tsx';
import { inOrderOf, wordsDiffering } from './diff.ts';
import { firstPublicPath, pretty, previewSet, renderVisits, type Doc, type StudioFile, type VisitorChoice } from './model.ts';

type Decision = 'approve' | 'sendBack' | 'withdraw' | 'comment';
/** Two desktops side by side in a wide window: each shown at this width. */
const COMPARED_DESKTOP_WIDTH = 640;
const when = (iso: string) => new Date(iso).toLocaleString();

export function Reviews({
  reviews,
  approvalsRequired,
  files,
  brands,
  brand,
  visitors,
  onChanged,
}: {
  reviews: readonly StudioReview[];
  approvalsRequired: boolean;
  files: readonly StudioFile[];
  brands: string[];
  brand: string;
  visitors: readonly VisitorChoice[];
  onChanged(): Promise<void>;
}) {
  if (reviews.length === 0) return <Text>No change was asked for review yet. Write a note and press 'Ask for review' to ask a second product owner.</Text>;
  return (
    <Stack gap="3">
      <Text fontSize="sm">{approvalsRequired ? "Here a change goes live only once a second product owner approves it." : 'A second look is optional here: you may publish alone, or ask for a review.'}</Text>
      {reviews.map((review) => (
        <ReviewCard key={review.id} review={review} approvalsRequired={approvalsRequired} files={files} brands={brands} brand={brand} visitors={visitors} onChanged={onChanged} />
      ))}
    </Stack>
  );
}

function ReviewCard({ review, approvalsRequired, files, brands, brand, visitors, onChanged }: { review: StudioReview } & Omit<Parameters<typeof Reviews>[0], 'reviews'>) {
  const [open, setOpen] = useState(review.state === 'Pending');
  const [comment, setComment] = useState('');
  const decide = useMutation({
    mutationFn: (decision: Decision) => callOperation('Studio_DecideReview', { body: { id: review.id, decision, ...(comment.trim() ? { comment: comment.trim() } : {}) } }) as Promise<StudioReview>,
    onSuccess: async (decided, decision) => {
      setComment('');
      const more = decided.approvalsNeeded - decided.approvals.length;
      toasts.success(
        decision === 'approve' && decided.state === 'Pending'
          ? `Approved: it goes live once ${more} more product owner(s) approve it.`
          : decided.state === 'Published'
          ? `Approved and published: ${decided.changed.length} file(s) are live.`
          : decided.state === 'Scheduled'
            ? `Approved: it will be published at ${when(decided.publishAt!)}.`
            : decided.state === 'SentBack'
              ? 'Sent back with your comment.'
              : decided.state === 'Withdrawn'
                ? 'Withdrawn.'
                : 'Comment added.',
      );
      await onChanged();
    },
    onError: (error) => toasts.error(error, 'Nothing was changed.'),
  });
  const waiting = review.state === 'Pending' || review.state === 'Scheduled';
  const mayApprove = review.state === 'Pending' && !(approvalsRequired && review.mine) && !review.approvedByMe;
  const lastApproval = review.approvals.length + 1 >= review.approvalsNeeded;
  const commented = comment.trim() !== '';
  return (
    <Box as="article" aria-label={`Review ${review.id}`} borderWidth="1px" borderRadius="md" p="3">
      <Flex gap="2" align="center" wrap="wrap">
        <Text fontWeight="semibold">{review.note}</Text>
        <Badge colorPalette={review.state === 'Published' ? 'green' : waiting ? 'orange' : 'gray'}>{labels.StudioReviewState?.[review.state] ?? review.state}</Badge>
      </Flex>
      <Text fontSize="sm" color="fg.muted">
        Asked by {review.mine ? 'you' : review.askedBy} on {when(review.askedAt)} · {review.changed.join(', ')}
        {review.publishAt ? ` · to publish at ${when(review.publishAt)}` : ''}
        {review.decidedBy ? ` · ${review.state === 'SentBack' ? 'sent back' : review.state === 'Withdrawn' ? 'withdrawn' : 'approved'} by ${review.decidedBy}` : ''}
        {review.publicationId ? ` · publication ${review.publicationId}` : ''}
      </Text>
      {review.approvalsNeeded > 1 ? (
        <Text fontSize="sm">
          {review.approvals.length} of {review.approvalsNeeded} approvals{review.approvals.length ? `: ${review.approvals.map((a) => `${a.by}, ${when(a.at)}`).join('; ')}` : ''}
        </Text>
      ) : null}
      {review.failure ? (
        <Text fontSize="sm" color="fg.error">
          {review.failure}
        </Text>
      ) : null}
      {review.comments.map((c, i) => (
        <Text key={i} fontSize="sm" ps="2" borderStartWidth="2px">
          {c.by}, {when(c.at)}: {c.text}
        </Text>
      ))}
      <Button size="xs" variant="ghost" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? 'Hide the change' : 'See the change'}
      </Button>
      {open ? <TheChange review={review} files={files} brands={brands} brand={brand} visitors={visitors} /> : null}
      {waiting ? (
        <Stack gap="2" mt="2">
          <Textarea aria-label={`Comment on review ${review.id}`} size="sm" rows={2} maxLength={1000} placeholder="A comment (needed to send it back)" value={comment} onChange={(e) => setComment(e.target.value)} />
          <Flex gap="2" wrap="wrap" align="center">
            {review.state === 'Pending' ? (
              <Button size="sm" colorPalette="brand" disabled={!mayApprove || decide.isPending} onClick={() => decide.mutate('approve')}>
                {!lastApproval ? 'Approve' : review.publishAt ? 'Approve for its time' : 'Approve and publish'}
              </Button>
            ) : null}
            {review.state === 'Pending' ? (
              <Button size="sm" variant="outline" disabled={!commented || decide.isPending} onClick={() => decide.mutate('sendBack')}>
                Send back
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" disabled={!commented || decide.isPending} onClick={() => decide.mutate('comment')}>
              Comment
            </Button>
            {review.mine ? (
              <Button size="sm" variant="ghost" colorPalette="red" disabled={decide.isPending} onClick={() => decide.mutate('withdraw')}>
                Withdraw
              </Button>
            ) : null}
            {review.state === 'Pending' && !mayApprove ? <Text fontSize="sm">{review.approvedByMe ? 'You approved it: it waits for another product owner.' : 'A second product owner approves it: not the one who asked.'}</Text> : null}
          </Flex>
        </Stack>
      ) : null}
    </Box>
  );
}

/** A change asked: each file's lines against what is live, and its pages before and after, side by side. */
function TheChange({ review, files, brands, brand, visitors }: { review: StudioReview; files: readonly StudioFile[]; brands: string[]; brand: string; visitors: readonly VisitorChoice[] }) {
  const asked = review.files as Record<string, Doc | null>;
  const [comparing, setComparing] = useState(false);
  return (
    <Stack gap="3" mt="2">
      {Object.entries(asked).map(([path, doc]) => {
        const live = files.find((f) => f.path === path);
        return (
          <Stack key={path} gap="1">
            <Text fontSize="sm" fontWeight="medium">
              {path}
              {doc === null ? ' — back as deployed' : live ? '' : ' — a new file'}
            </Text>
            <Changes before={live ? pretty(live.doc) : ''} after={doc ? pretty(inOrderOf(live?.doc, doc)) : '(as deployed)\n'} label={`Changes to ${path}`} />
          </Stack>
        );
      })}
      <Button size="sm" variant="outline" alignSelf="flex-start" onClick={() => setComparing(true)}>
        Compare the pages before and after
      </Button>
      {comparing ? <Compare review={review} files={files} brands={brands} brand={brand} visitors={visitors} onClose={() => setComparing(false)} /> : null}
    </Stack>
  );
}

/** The pages a change touches, live now and with the change, side by side: any address, as anyone, in any brand and device. */
function Compare({ review, files, brands, brand: firstBrand, visitors, onClose }: { review: StudioReview; files: readonly StudioFile[]; brands: string[]; brand: string; visitors: readonly VisitorChoice[]; onClose(): void }) {
  const after = useMemo(() => Object.fromEntries(Object.entries(review.files as Record<string, Doc | null>).flatMap(([path, doc]) => (doc ? [[path, doc]] : []))), [review.files]);
  const first = useMemo(() => renderVisits(files, after, visitors, 1)[0], [files, after, visitors]);
  const [address, setAddress] = useState(first?.path ?? firstPublicPath(files));
  const [shown, setShown] = useState(address);
  const [brand, setBrand] = useState(firstBrand);
  const [device, setDevice] = useState<Device>('phone');
  const [visitorId, setVisitorId] = useState(first?.visitor.id ?? visitors[0]?.id ?? '');
  const visitor = visitors.find((v) => v.id === visitorId)?.visitor;
  const before = useMemo(() => previewSet(files, {}), [files]);
  const changed = useMemo(() => previewSet(files, after), [files, after]);
  const width = device === 'phone' ? DEVICES.phone.width : COMPARED_DESKTOP_WIDTH;
  // 'Mark what differs' asks both pages for their words (again at each press); each page marks what the other lacks.
  const [asked, setAsked] = useState(0);
  const [words, setWords] = useState<{ asked: number; before?: string[]; after?: string[] }>({ asked: 0 });
  const heard = useCallback((side: 'before' | 'after') => (shownWords: string[], at: number) => setWords((known) => (known.asked === at ? { ...known, [side]: shownWords } : known)), []);
  const onBefore = useMemo(() => heard('before'), [heard]);
  const onAfter = useMemo(() => heard('after'), [heard]);
  const differs = words.before && words.after && words.asked === asked ? wordsDiffering(words.before, words.after) : undefined;
  const markAgain = () => {
    setWords({ asked: asked + 1 });
    setAsked(asked + 1);
  };
  // Another page, visitor, brand or device is drawn afresh, unmarked.
  const forget = <T,>(set: (value: T) => void) => (value: T) => {
    setWords({ asked: 0 });
    setAsked(0);
    set(value);
  };
  return (
    <WideWindow title={`Review ${review.id}: ${review.note}`} closeLabel="Close the comparison" onClose={onClose}>
      <Flex gap="2" wrap="wrap" align="flex-end" mb="3">
        <Input size="sm" flex="1" minW="12rem" maxW="24rem" aria-label="Address to compare" value={address} onChange={(e) => setAddress(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && forget(setShown)(address)} />
        <Button size="sm" onClick={() => forget(setShown)(address)}>
          Compare
        </Button>
        <Choice label="Compared as" value={visitorId} onChange={forget(setVisitorId)} options={visitors.map((v) => [v.id, v.label])} />
        <Choice label="Compared in brand" value={brand} onChange={forget(setBrand)} options={brands.map((id) => [id, id])} />
        <Choice label="Compared on" value={device} onChange={(value) => forget(setDevice)(value as Device)} options={[['phone', 'Phone (412 px)'], ['desktop', 'Desktop (1280 px)']]} />
        <Button size="sm" variant="outline" onClick={markAgain}>
          Mark what differs
        </Button>
      </Flex>
      <Differences asked={asked} differs={differs} />
      <Flex gap="4" wrap="wrap" justify="center">
        {(
          [
            ['Live now', before],
            ['With this change', changed],
          ] as const
        ).map(([side, set]) => (
          <Stack key={side} gap="1">
            <Text fontSize="sm" fontWeight="medium">
              {side}
            </Text>
            <PreviewFrame
              address={shown}
              brand={brand}
              device={device}
              set={set}
              visitorId={visitorId}
              visitor={visitor}
              title={`Review ${review.id}: ${side.toLowerCase()}`}
              width={width}
              wordsAsked={asked}
              onWords={set === before ? onBefore : onAfter}
              marked={differs && (set === before ? differs.onlyBefore : differs.onlyAfter)}
            />
          </Stack>
        ))}
      </Flex>
    </WideWindow>
  );
}

function Choice({ label, value, onChange, options }: { label: string; value: string; onChange(value: string): void; options: ReadonlyArray<readonly [string, string]> }) {
  return (
    <NativeSelect.Root size="sm" width="auto">
      <NativeSelect.Field aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([id, words]) => (
          <option key={id} value={id}>
            {words}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

/** How many of a page's differing words are listed; the marks on the page show them all. */
const LISTED = 12;

/** The words only one of the two pages shows, listed under the controls once both pages have told theirs. */
function Differences({ asked, differs }: { asked: number; differs: { onlyBefore: string[]; onlyAfter: string[] } | undefined }) {
  if (!asked) return null;
  if (!differs) return <Text fontSize="sm" mb="2">Reading the words of both pages…</Text>;
  if (!differs.onlyBefore.length && !differs.onlyAfter.length) return <Text fontSize="sm" mb="2">The two pages show the same words.</Text>;
  const list = (words: string[]) => `${words.slice(0, LISTED).map((w) => `'${w}'`).join(', ')}${words.length > LISTED ? `, and ${words.length - LISTED} more` : ''}`;
  return (
    <Stack gap="1" mb="2" fontSize="sm" role="status" aria-label="What differs">
      <Text>Each page marks the words the other does not show.</Text>
      {differs.onlyBefore.length ? <Text>Only live now: {list(differs.onlyBefore)}</Text> : null}
      {differs.onlyAfter.length ? <Text>Only with this change: {list(differs.onlyAfter)}</Text> : null}
    </Stack>
  );
}
