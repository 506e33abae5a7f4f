import { CHIPS, CHIP_CLASS, NO_OFFERS } from './chip-styles.ts';

/** `value` is the chip name, or [chip, text] to show the row's own status text. */
export function StatusChip({ value }: { value: unknown }) {
  const [chip, own] = Array.isArray(value) ? value : [value, undefined];
  const spec = CHIPS[String(chip)] ?? NO_OFFERS;
  const label = typeof own === 'string' && own ? own : spec.label;
  return (
    <span className={CHIP_CLASS} data-chip={spec.style}>
      {label}
    </span>
  );
}
