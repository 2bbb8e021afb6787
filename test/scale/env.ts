import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from '../../bench/processes.js';
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

/**
 * A Redis of one test file's own, which the file may stop and start again. Its port comes from
 * the kernel (bench/processes.ts freePort): one computed from the pid once landed on 6379 and stopped the Redis other files share.
 */
export async function privateRedis(tag: string) {
  const port = await freePort();
  const ping = () => {
    try {
      return execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() === 'PONG';
    } catch {
      return false;
    }
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start(): void {
      execFileSync('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'yes', '--save', '', '--appendonly', 'no',
        '--dir', '/tmp', '--logfile', `/tmp/redis-${tag}-${port}.log`]);
      for (let i = 0; i < 50; i++) {
        if (ping()) return;
        execFileSync('sleep', ['0.1']);
      }
      throw new Error(`the test's own Redis did not start on port ${port}`);
    },
    stop(): void {
      if (ping()) execFileSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'ignore' });
    },
  };
}
