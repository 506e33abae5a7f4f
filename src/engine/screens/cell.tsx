import { Link } from '@chakra-ui/react';
import type { Column } from '../../../codegen/generated/descriptors.ts';
import { evaluate, getPath, type Context } from '../../../core/expressions.ts';
import { formatField } from '../../../core/formats.ts';
import { resolveTarget } from '../routing.ts';
import { useEngine, type WidgetRegistry } from '../services.ts';
import { ActionButton, Shown } from '../ui.tsx';
import type { ActionRuntime } from '../actions.ts';

type Row = Record<string, unknown>;

/**
 * A long free text (a status detail) wraps, but never narrower than a readable width: left to the browser, a narrow
 * screen squeezed it into a column a word wide and every row grew many lines tall. Amounts and dates keep to one
 * line. A long header wraps too: in Spanish the offers' 'Intereses si no se paga en la promoción' on one line pushed a
 * 1280-pixel screen's table sideways. On a phone the table scrolls sideways anyway, so short texts, headers and the
 * row's buttons keep to one line too.
 * One rule for the table, not a style per cell (decisions 0131, 0132).
 */
export const CELLS = {
  '& td, & th': { whiteSpace: { base: 'nowrap', sm: 'normal' } },
  '& .cell-prose': { display: 'block', minWidth: '12rem', whiteSpace: 'normal' },
  '& .cell-line': { whiteSpace: 'nowrap' },
  '& .cell-buttons': { display: 'flex', gap: '2', flexWrap: { base: 'nowrap', sm: 'wrap' } },
} as const;
/** A plain text longer than this is prose (it may wrap). */
const PROSE_CHARS = 30;

export function Cell({ column, row, context, runtime, widgets }: { column: Column; row: Row; context: Context; runtime: ActionRuntime; widgets: WidgetRegistry }) {
  const services = useEngine();
  const ctx = { ...context, row };
  if (column.buttons) {
    return (
      <div className="cell-buttons">
        {column.buttons.map((b, i) => (
          <ActionButton key={b.id ?? i} button={b} context={ctx} runtime={runtime} size="xs" />
        ))}
      </div>
    );
  }
  const value = evaluate(column.value ?? { var: `row.${column.id}` }, ctx);
  if (column.format === 'chip') return <widgets.StatusChip value={value} />;
  const shown = formatField(column.format, value, (at) => getPath(ctx, at));
  if (column.to && shown) {
    try {
      const target = resolveTarget(column.to, ctx, services.descriptors.table);
      const href = target.kind === 'route' ? `#${target.path}` : target.href;
      return (
        <Link href={href} color="brand.fg" textDecoration="underline" target={target.kind === 'href' ? '_blank' : undefined}>
          {shown}
        </Link>
      );
    } catch {
      return <>{shown}</>;
    }
  }
  // Formatted values (money, dates) keep to one line; words, translated or not, may wrap.
  if (column.format && column.format !== 'text') return <span className="cell-line"><Shown format={column.format} value={value} shown={shown} /></span>;
  return shown.length > PROSE_CHARS ? <span className="cell-prose">{shown}</span> : <>{shown}</>;
}

