import { createHash } from 'node:crypto';
import pg from 'pg';
import { withFields } from '../../domain/with-fields.js';

export type Db = pg.Pool | pg.PoolClient;

/**
 * Queries are written with `?` placeholders, like the SQLite adapter's, so the shared filter
 * builder (sqlite/filters.ts) serves both; this numbers them for PostgreSQL. No query here puts
 * a `?` inside a string literal.
 */
export function numbered(text: string): string {
  let i = 0;
  return text.replace(/\?/g, () => `$${++i}`);
}

const prepared = new Map<string, { name: string; text: string }>();

/**
 * A fixed statement, prepared once per connection (pg keys it by name): hot paths skip parsing
 * and planning. Only for texts that do not vary with the input, or the map would grow.
 */
export function statement(text: string): { name: string; text: string } {
  let s = prepared.get(text);
  if (!s) {
    s = { name: `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text: numbered(text) };
    prepared.set(text, s);
  }
  return s;
}

export async function rows<T>(db: Db, text: string, params: unknown[] = [], prepare = false): Promise<T[]> {
  const res = prepare ? await db.query(withFields(statement(text), { values: params })) : await db.query(numbered(text), params);
  return res.rows as T[];
}

export async function one<T>(db: Db, text: string, params: unknown[] = [], prepare = false): Promise<T | undefined> {
  return (await rows<T>(db, text, params, prepare))[0];
}

/** A WHERE condition from the shared builder, which says `1` for "no condition". */
/** Runs `fn` in a transaction on one pooled connection; rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

export const cond = (sql: string) => (sql === '1' ? 'TRUE' : sql);

/** bigint (ids, counts) as JS numbers: ids stay far below 2^53. */
const INT8 = 20;
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/** SQLSTATEs after which a whole ingest batch is simply tried again. */
export const RETRYABLE = new Set(['23505', '40001', '40P01']);

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

/**
 * A PostgreSQL array literal (`{"a",NULL,"b\"c"}`) built in one join. pg would build the same
 * text by appending to one string element by element, which then has to be flattened before it
 * is sent: costly on a batch's column arrays.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v == null) parts[i] = 'NULL';
    else if (typeof v === 'number') parts[i] = String(v);
    else if (typeof v === 'boolean') parts[i] = v ? 't' : 'f';
    else {
      const s = String(v);
      parts[i] = `"${NEEDS_ESCAPE.test(s) ? s.replace(ESCAPED, '\\$&') : s}"`;
    }
  }
  return `{${parts.join(',')}}`;
}

// JSON.stringify writes a lone surrogate as an escape (\ud800), which jsonb refuses; a text
// parameter would have carried it as U+FFFD, so it becomes that. An escaped backslash before it is kept.
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/gi;

/** Rows as one JSON array of arrays, for `jsonb_array_elements($1::jsonb)`. */
export function jsonRows(rows: unknown[][]): string {
  const text = JSON.stringify(rows);
  return text.includes('\\ud') || text.includes('\\uD') ? text.replace(LONE_SURROGATE, '$1\\ufffd') : text;
}
