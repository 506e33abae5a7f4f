import { Column, getTableName, is, SQL, sql, Subquery, type Placeholder } from 'drizzle-orm';
import type { Db } from './index.ts';

/**
 * The values of one statement: conditions take each value through `bind`, which answers a named placeholder and keeps
 * the value, to be passed when the statement runs.
 */
export class Params {
  readonly values: Record<string, unknown> = {};
  readonly bind = <T>(name: string, value: T): Placeholder<string, T> => {
    this.values[name] = value;
    return sql.placeholder(name);
  };

  /** The names bound so far: with the query's other choices, they say which statement the conditions make. */
  get names(): string {
    return Object.keys(this.values).join(',');
  }
}

interface Statement<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** A selected column as drizzle's prepared query lists it: where its value goes, and what reads it. */
interface SelectedField {
  path: string[];
  field: unknown;
}

/** What drizzle's prepared query (node-postgres and PGlite alike) holds to turn the driver's rows into objects. */
interface DrizzleStatement {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** An SQL expression's decoder (drizzle keeps it out of the type). */
const decoderOfSql = (expression: unknown): Decoder => (expression as { decoder: Decoder }).decoder;

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field._ as unknown as { sql: unknown }).sql);
  return decoderOfSql((field as SQL.Aliased).sql);
}

/** Where a selected column's value goes: its column index, or the keys of a nested selection, in selection order. */
type Shape = Map<string, number | Shape>;

/**
 * drizzle's own row mapping, worked out once per statement as one function: drizzle asks of every column of every row
 * what kind of field it is (a prototype walk each time), which took a seventh of the server's time on the Home list
 * (decision 0202). The function is written out (object literals with the selection's keys, one decoder call per
 * column) rather than looped over the columns: objects built key by key through computed keys are stores V8 cannot
 * specialize, and on the kanban's 200 cards that loop alone was a sixth of a call's CPU. Same result as drizzle's:
 * each value at its path through its column's decoder, and a left-joined table's object null when its first column is
 * null and all its columns are that table's.
 */
function rowMapper({ fields, joinsNotNullableMap: joins }: Required<Pick<DrizzleStatement, 'fields'>> & DrizzleStatement): (rows: unknown[][]) => unknown[] {
  const shape: Shape = new Map();
  /** A top-level object's first column of a joined table, and that table while all its joined columns are of it. */
  const nullable = new Map<string, { column: number; table: string | false }>();
  fields.forEach(({ path, field }, column) => {
    let node = shape;
    for (const parent of path.slice(0, -1)) {
      let child = node.get(parent);
      if (!(child instanceof Map)) node.set(parent, (child = new Map()));
      node = child;
    }
    node.set(path[path.length - 1]!, column);
    if (!joins || !is(field, Column) || path.length !== 2) return;
    const table = getTableName(field.table);
    const seen = nullable.get(path[0]!);
    if (!seen) nullable.set(path[0]!, { column, table });
    else if (seen.table !== table) seen.table = false;
  });
  const literal = (node: Shape): string =>
    `{${Array.from(node, ([key, at]) => {
      const value = typeof at === 'number' ? `v${at}` : literal(at);
      const joined = node === shape && nullable.get(key);
      const nulled = joined && joined.table !== false && !joins![joined.table] ? `v${joined.column} === null ? null : ` : '';
      return `${JSON.stringify(key)}: ${nulled}${value}`;
    }).join(', ')}}`;
  const values = fields.map((_, i) => `const v${i} = row[${i}] === null ? null : decoders[${i}].mapFromDriverValue(row[${i}]);`).join('\n');
  const body = `return (rows) => rows.map((row) => {\n${values}\nreturn ${literal(shape)};\n});`;
  // The text holds only the selection's keys (JSON-quoted) and column indexes: nothing of a request.
  return new Function('decoders', body)(fields.map(({ field }) => decoderOf(field))) as (rows: unknown[][]) => unknown[];
}

/** The statement, mapping its rows with `rowMapper` where drizzle would map them itself. */
function withRowMapper<S>(statement: S): S {
  const drizzle = statement as S & DrizzleStatement;
  if (drizzle.fields && !drizzle.customResultMapper) drizzle.customResultMapper = rowMapper({ ...drizzle, fields: drizzle.fields });
  return statement;
}

/** A query built with placeholders, not yet prepared. */
interface Preparable<R> {
  prepare(name: string): Statement<R>;
}

/** Shapes with a name; a query of a shape beyond them is parsed on every call, as an unnamed statement. */
const NAMED_SHAPES = 256;

/**
 * Statements built once per shape (decision 0140): drizzle turns a query into SQL text on every call, which took
 * about an eighth of the server's time on a list call. A cached statement is built with placeholders the first time
 * its shape (which conditions, which sort) is asked for, then only runs with new values; PostgreSQL prepares it once
 * per connection under its name.
 *
 * A shape's name is the same on every database object, so the same text always has the same name on a connection
 * (PostgreSQL refuses one name for two texts). A transaction is a database object of its own: it builds the
 * statements it runs again, under those names.
 */
export class StatementCache<R> {
  private readonly names = new Map<string, string>();
  private readonly byDatabase = new WeakMap<Db, Map<string, Statement<R>>>();
  constructor(private readonly prefix: string) {}

  /** Runs the statement of `shape` with its placeholders' values; `build` makes it the first time. */
  run(db: Db, shape: string, values: Record<string, unknown>, build: () => Preparable<R>): Promise<R> {
    let statements = this.byDatabase.get(db);
    if (!statements) this.byDatabase.set(db, (statements = new Map()));
    let statement = statements.get(shape);
    if (!statement) {
      let name = this.names.get(shape);
      if (name === undefined && this.names.size < NAMED_SHAPES) this.names.set(shape, (name = `${this.prefix}${this.names.size}`));
      statement = withRowMapper(build().prepare(name ?? ''));
      if (name !== undefined) statements.set(shape, statement);
    }
    return statement.execute(values);
  }
}
