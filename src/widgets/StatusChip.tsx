import { chakra } from '@chakra-ui/react';

/**
 * The status chip of spec §4 (the server sends `statusChip`, decision 0006): OffersAvailable green, Expired the expired
 * style, ActionRequired red, Completed accent blue, Refund and Inactive orange, Funded dark blue, anything else the grey
 * 'no-offers' style. Text colours are chosen for WCAG AA contrast on each background.
 */
export const CHIPS: Record<string, { label: string; bg: string; color: string; style: string }> = {
  OffersAvailable: { label: 'Offers Available', bg: 'success.solid', color: 'success.contrast', style: 'offers-available' },
  Expired: { label: 'Expired', bg: 'gray.600', color: 'white', style: 'expired' },
  ActionRequired: { label: 'Action Required', bg: 'error.solid', color: 'error.contrast', style: 'action-required' },
  Completed: { label: 'Completed', bg: 'brand.solid', color: 'brand.contrast', style: 'completed' },
  Refund: { label: 'Refund', bg: 'orange.400', color: 'gray.950', style: 'refund' },
  Inactive: { label: 'Inactive', bg: 'orange.400', color: 'gray.950', style: 'inactive' },
  Funded: { label: 'Funded', bg: 'blue.900', color: 'white', style: 'funded' },
};
const NO_OFFERS = { label: 'No Offers', bg: 'gray.200', color: 'gray.800', style: 'no-offers' };

/**
 * One styled span for every chip, its colours chosen by `data-chip`: lists and the kanban show hundreds of chips, and a
 * recipe component per chip costs several times a plain element (bench/kanban.ts).
 */
const Chip = chakra('span', {
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    borderRadius: 'full',
    px: '2.5',
    py: '0.5',
    fontSize: 'xs',
    lineHeight: '1rem',
    fontWeight: 'semibold',
    whiteSpace: 'nowrap',
    ...Object.fromEntries([...Object.values(CHIPS), NO_OFFERS].map((c) => [`&[data-chip=${c.style}]`, { bg: c.bg, color: c.color }])),
    '&[data-chip=expired]': { bg: 'gray.600', color: 'white', textDecoration: 'line-through' },
  },
});

/** `value` is the chip name, or [chip, text] to show the row's own status text. */
export function StatusChip({ value }: { value: unknown }) {
  const [chip, own] = Array.isArray(value) ? value : [value, undefined];
  const spec = CHIPS[String(chip)] ?? NO_OFFERS;
  const label = typeof own === 'string' && own ? own : spec.label;
  return <Chip data-chip={spec.style}>{label}</Chip>;
}
