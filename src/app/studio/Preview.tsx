/**
 * The studio's preview: the app itself in a frame of the same origin, started in preview mode (?studio-preview) and
 * fed the draft set by message, so the real engine renders the draft — as a phone (412 px) or a desktop, in any
 * brand, at any address of the app, as anyone or as a role (decision 0229). The frame signs no one in: a role's pages
 * show sample answers of the contract, and nothing it does is sent.
 */
import { PREVIEW_FLAG } from '../../../core/tab-keys.ts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Button, chakra, Flex, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { WideWindow } from './WideWindow.tsx';
import type { DescriptorSet } from '../live-descriptors.ts';
import { PREVIEW_MESSAGE, type PreviewVisitor } from '../preview-frame.ts';
import { firstPublicPath, previewSet, type Doc, type StudioFile, type VisitorChoice } from './model.ts';

export const DEVICES = { phone: { width: 412, height: 780 }, desktop: { width: 1280, height: 800 } } as const;
export type Device = keyof typeof DEVICES;
const FRAME_WIDTH = 464;
/** The large preview's room for the window's own margins: a wider page is scaled down to the rest. */
const LARGE_MARGIN = 96;

/**
 * One frame of the app in preview mode, at an address and brand, fed a set of drafts for a visitor; while `picking`,
 * a click in it names the words clicked (src/app/preview-pick.ts) instead of acting.
 */
export function PreviewFrame({
  address,
  brand,
  device,
  set,
  visitorId,
  visitor,
  title,
  picking = false,
  onPicked,
  onReady,
  wordsAsked,
  onWords,
  marked,
  width = FRAME_WIDTH,
}: {
  /** The frame's width on the studio's page: the device's page is scaled down to it. */
  width?: number;
  address: string;
  brand: string;
  device: Device;
  set: DescriptorSet;
  visitorId: string;
  visitor: PreviewVisitor | undefined;
  title: string;
  picking?: boolean;
  onPicked?(picked: { text: string; path: string }): void;
  onReady?(ready: boolean): void;
  /** Asks the page for the words it shows, again at each new number; `onWords` hears them with the number asked. */
  wordsAsked?: number;
  onWords?(words: string[], asked: number): void;
  /** Words to mark on the page (none: no marks). */
  marked?: readonly string[];
}) {
  const [ready, setReady] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const src = `/?${PREVIEW_FLAG}=1&brand=${encodeURIComponent(brand)}#${address.startsWith('/') ? address : `/${address}`}`;
  // The visitor is the frame's from its start (its session, its answers): another one is another frame.
  const frameKey = `${visitorId} ${src}`;
  // A new frame says when it is ready for the draft.
  useEffect(() => setReady(false), [frameKey]);
  useEffect(() => onReady?.(ready), [ready, onReady]);
  useEffect(() => {
    const onMessage = (event: MessageEvent<{ type?: string; text?: unknown; path?: unknown; words?: unknown; asked?: unknown }>) => {
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      const { type, text, path, words, asked } = event.data ?? {};
      if (type === `${PREVIEW_MESSAGE}-ready`) setReady(true);
      if (type === `${PREVIEW_MESSAGE}-picked` && typeof text === 'string' && typeof path === 'string') onPicked?.({ text, path });
      if (type === `${PREVIEW_MESSAGE}-words-shown` && Array.isArray(words) && typeof asked === 'number') onWords?.(words.filter((w): w is string => typeof w === 'string'), asked);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [onPicked, onWords]);
  useEffect(() => {
    if (ready && wordsAsked) frame.current?.contentWindow?.postMessage({ type: `${PREVIEW_MESSAGE}-words`, asked: wordsAsked }, window.location.origin);
  }, [ready, wordsAsked]);
  useEffect(() => {
    if (ready && marked) frame.current?.contentWindow?.postMessage({ type: `${PREVIEW_MESSAGE}-mark`, words: marked }, window.location.origin);
  }, [ready, marked]);
  useEffect(() => {
    if (ready) frame.current?.contentWindow?.postMessage({ type: PREVIEW_MESSAGE, set, visitor }, window.location.origin);
  }, [ready, set, visitor]);
  useEffect(() => {
    if (ready) frame.current?.contentWindow?.postMessage({ type: `${PREVIEW_MESSAGE}-pick`, on: picking }, window.location.origin);
  }, [ready, picking]);
  const size = DEVICES[device];
  const scale = Math.min(1, width / size.width);
  return (
    <Box w={`${size.width * scale}px`} h={`${size.height * scale}px`} borderWidth="1px" borderRadius="md" overflow="hidden" flexShrink={0}>
      <chakra.iframe
        // A new frame for a new address, brand or device; a new draft goes to the frame as it is.
        key={frameKey}
        ref={frame}
        title={title}
        src={src}
        width={size.width}
        height={size.height}
        border="0"
        style={{ transform: `scale(${scale})`, transformOrigin: '0 0' }}
      />
    </Box>
  );
}

export function Preview({
  files,
  drafts,
  brands,
  brand: firstBrand,
  visitors,
  onPick,
  asItWas,
}: {
  files: readonly StudioFile[];
  drafts: Readonly<Record<string, Doc>>;
  brands: string[];
  brand: string;
  visitors: readonly VisitorChoice[];
  /** Words clicked in the preview while picking, the page's address, and the brand shown. */
  onPick(picked: { text: string; path: string; brand: string }): void;
  /** A publication shown as it was instead of the drafts, and the way back to them. */
  asItWas?: { id: number; set: DescriptorSet; onLeave(): void } | undefined;
}) {
  const [address, setAddress] = useState(() => firstPublicPath(files));
  const [shown, setShown] = useState(address);
  const [brand, setBrand] = useState(firstBrand);
  const [device, setDevice] = useState<Device>('phone');
  const [visitorId, setVisitorId] = useState(visitors[0]?.id ?? '');
  const visitor = visitors.find((v) => v.id === visitorId)?.visitor;
  const [ready, setReady] = useState(false);
  const [picking, setPicking] = useState(false);
  // The page at its own size, in a window of its own: a desktop page in the column is a third of its size.
  const [large, setLarge] = useState(false);
  const drafted = useMemo(() => previewSet(files, drafts), [files, drafts]);
  const set = asItWas?.set ?? drafted;
  // A new frame is not picking.
  useEffect(() => setPicking(false), [shown, brand, device, visitorId]);
  const onPicked = useCallback(
    (picked: { text: string; path: string }) => {
      setPicking(false);
      onPick({ ...picked, brand });
    },
    [onPick, brand],
  );
  return (
    <Stack gap="2" aria-label="Preview">
      <Text fontWeight="semibold">Preview</Text>
      {asItWas ? (
        <Flex gap="2" align="center" wrap="wrap" role="status" aria-label="Preview shows">
          <Text fontSize="sm">Publication {asItWas.id} as it was, not your drafts.</Text>
          <Button size="xs" variant="outline" onClick={asItWas.onLeave}>
            Back to your drafts
          </Button>
        </Flex>
      ) : null}
      <Flex gap="2" wrap="wrap" align="flex-end">
        <Stack gap="1" flex="1" minW="10rem">
          <chakra.label htmlFor="studio-preview-address" fontSize="sm">
            Address
          </chakra.label>
          <Input
            id="studio-preview-address"
            size="sm"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') setShown(address);
            }}
          />
        </Stack>
        <Button size="sm" onClick={() => setShown(address)}>
          Show
        </Button>
      </Flex>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field aria-label="Seen by" value={visitorId} onChange={(e) => setVisitorId(e.target.value)}>
          {visitors.map((v) => (
            <option key={v.id} value={v.id}>
              {v.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {visitor && <Text fontSize="xs">Sample answers: no one's records are shown, and nothing is sent.</Text>}
      <Flex gap="2">
        <NativeSelect.Root size="sm">
          <NativeSelect.Field aria-label="Brand" value={brand} onChange={(e) => setBrand(e.target.value)}>
            {brands.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field aria-label="Device" value={device} onChange={(e) => setDevice(e.target.value as Device)}>
            <option value="phone">Phone (412 px)</option>
            <option value="desktop">Desktop (1280 px)</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      <Flex gap="2" align="center" wrap="wrap">
        <Button size="sm" variant={picking ? 'solid' : 'outline'} aria-pressed={picking} disabled={!ready} onClick={() => setPicking(!picking)}>
          {picking ? 'Click a text in the preview…' : 'Pick a text to change'}
        </Button>
        {picking ? <Text fontSize="xs">The click opens its place in the editor; it does not act on the page.</Text> : null}
      </Flex>
      <PreviewFrame address={shown} brand={brand} device={device} set={set} visitorId={visitorId} visitor={visitor} title="Preview of the draft" picking={picking} onPicked={onPicked} onReady={setReady} />
      <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={() => setLarge(true)}>
        Show it large
      </Button>
      {large ? (
        <WideWindow title={`${shown} — ${DEVICES[device].width} px`} closeLabel="Close the large preview" onClose={() => setLarge(false)}>
          <Flex justify="center">
            <PreviewFrame address={shown} brand={brand} device={device} set={set} visitorId={visitorId} visitor={visitor} title="Large preview of the draft" width={Math.min(DEVICES[device].width, window.innerWidth - LARGE_MARGIN)} />
          </Flex>
        </WideWindow>
      ) : null}
    </Stack>
  );
}
