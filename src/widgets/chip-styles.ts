/**
 * The status chip of spec §4 (the server sends `statusChip`, decision 0006): OffersAvailable green, Expired the expired
 * style, ActionRequired red, Completed accent blue, Refund and Inactive orange, Funded dark blue, anything else the grey
 * 'no-offers' style. Text colours are chosen for WCAG AA contrast on each background.
 *
 * The styles are one global rule (src/app/theme.ts adds CHIP_CSS to the system's global CSS) and a chip is a plain span
 * with `data-chip`: lists and the kanban show hundreds of chips, and a styled component per chip hashes its whole style
 * object on every render, which cost more than the rest of a kanban card (bench/kanban.ts, docs/decisions/0132).
 */
export const CHIPS: Record<string, { label: string; bg: string; color: string; style: string; textDecoration?: string }> = {
  OffersAvailable: { label: 'Offers Available', bg: 'success.solid', color: 'success.contrast', style: 'offers-available' },
  Expired: { label: 'Expired', bg: 'gray.600', color: 'white', style: 'expired', textDecoration: 'line-through' },
  ActionRequired: { label: 'Action Required', bg: 'error.solid', color: 'error.contrast', style: 'action-required' },
  Completed: { label: 'Completed', bg: 'brand.solid', color: 'brand.contrast', style: 'completed' },
  Refund: { label: 'Refund', bg: 'orange.400', color: 'gray.950', style: 'refund' },
  Inactive: { label: 'Inactive', bg: 'orange.400', color: 'gray.950', style: 'inactive' },
  Funded: { label: 'Funded', bg: 'blue.900', color: 'white', style: 'funded' },
  AwaitingBorrower: { label: 'Waiting for the Borrower', bg: 'gray.200', color: 'gray.800', style: 'no-offers' },
  AwaitingLenders: { label: 'Waiting for Lenders', bg: 'gray.200', color: 'gray.800', style: 'no-offers' },
};
export const NO_OFFERS = { label: 'No Offers', bg: 'gray.200', color: 'gray.800', style: 'no-offers' };

export const CHIP_CLASS = 'status-chip';

export const CHIP_CSS = {
  [`.${CHIP_CLASS}`]: {
    display: 'inline-flex',
    alignItems: 'center',
    borderRadius: 'full',
    px: '2.5',
    py: '0.5',
    fontSize: 'xs',
    lineHeight: '1rem',
    fontWeight: 'semibold',
    whiteSpace: 'nowrap',
    ...Object.fromEntries(
      [...Object.values(CHIPS), NO_OFFERS].map(({ style, label: _label, ...look }) => [`&[data-chip=${style}]`, look]),
    ),
  },
};
