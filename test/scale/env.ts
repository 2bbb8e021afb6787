import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A schema name no other run or test file uses, so runs never collide on one database. */
export function uniqueSchema(tag: string): string {
  return `t_${tag}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** `TEST_DATABASE_URL` pointed at a schema (`?schema=`, read by the adapter). */
export function urlWithSchema(schema: string): string {
  const u = new URL(TEST_DATABASE_URL);
  u.searchParams.set('schema', schema);
  return u.toString();
}

/** Fresh stores on fresh schemas; `dropAll` removes every schema it made. */
export function schemaFactory(tag: string) {
  const made: string[] = [];
  return {
    async store(opts: { statementTimeoutMs?: number; now?: () => Date } = {}): Promise<PostgresStore> {
      const schema = uniqueSchema(tag);
      made.push(schema);
      return createPostgresStore(TEST_DATABASE_URL, { schema, ...opts });
    },
    schema(): string {
      const schema = uniqueSchema(tag);
      made.push(schema);
      return schema;
    },
    async dropAll(): Promise<void> {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      try {
        for (const s of made.splice(0)) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}
