import { sql, type Placeholder } from 'drizzle-orm';
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
      statement = build().prepare(name ?? '');
      if (name !== undefined) statements.set(shape, statement);
    }
    return statement.execute(values);
  }
}
