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
  /** Statement text → its name (hashing the text again on every call cost a few percent of a list call). */
  private readonly names = new Map<string, string>();

  override query(...args: unknown[]): never {
    const [config, values] = args as [QueryConfig | string, unknown];
    if (config && typeof config === 'object' && typeof config.text === 'string' && config.name === undefined) {
      const parameters = Array.isArray(values) ? values : config.values;
      if (Array.isArray(parameters) && parameters.length > 0) {
        let name = this.names.get(config.text);
        if (name === undefined && this.names.size < STATEMENTS_PER_CONNECTION) {
          name = `q${createHash('sha1').update(config.text).digest('base64url')}`;
          this.names.set(config.text, name);
        }
        if (name !== undefined) args[0] = { ...config, name };
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
