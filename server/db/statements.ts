import { createHash } from 'node:crypto';
import pg from 'pg';

/** Distinct statements one connection keeps prepared; past it, queries go unnamed as before. */
const STATEMENTS_PER_CONNECTION = 500;

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown };

/**
 * A connection that prepares each parameterized statement once: the query gets a name derived from
 * its text, so PostgreSQL parses it on the first call only and later calls send just the values
 * (docs/decisions/0140). Statements without parameters (migrations, several statements in one text)
 * stay unnamed, since a prepared statement holds exactly one.
 */
export class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();

  override query(...args: unknown[]): never {
    const [config, values] = args as [QueryConfig | string, unknown];
    if (config && typeof config === 'object' && typeof config.text === 'string' && config.name === undefined) {
      const parameters = Array.isArray(values) ? values : config.values;
      if (Array.isArray(parameters) && parameters.length > 0) {
        const name = `q${createHash('sha1').update(config.text).digest('base64url')}`;
        if (this.prepared.has(name) || this.prepared.size < STATEMENTS_PER_CONNECTION) {
          this.prepared.add(name);
          args[0] = { ...config, name };
        }
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
