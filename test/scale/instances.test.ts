import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBus } from '../../src/events/redis-bus.js';
import type { BusMessage } from '../../src/events/bus.js';
import { freePort } from '../../bench/processes.js';
import { rec } from '../helpers/records.js';
import { TEST_REDIS_URL, schemaFactory, urlWithSchema } from './env.js';
import { until } from '../helpers/until.js';

/** Two `catalog serve` processes on one PostgreSQL schema and one Redis namespace. */
const ROOT = join(import.meta.dirname, '..', '..');
const schemas = schemaFactory('instances');
const PER_MINUTE = 20;
const dir = mkdtempSync(join(tmpdir(), 'catalog-instances-'));
let env: NodeJS.ProcessEnv;
const servers: Array<{ proc: ChildProcess; base: string; out: string[] }> = [];

function cli(...args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, 'bin/catalog.js'), ...args], { env, cwd: ROOT }).toString();
}

async function startServer(): Promise<{ proc: ChildProcess; base: string; out: string[] }> {
  const port = await freePort();
  const out: string[] = [];
  const proc = spawn(process.execPath, [join(ROOT, 'bin/catalog.js'), 'serve'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, cwd: ROOT });
  proc.stdout!.on('data', (d) => out.push(String(d)));
  proc.stderr!.on('data', (d) => out.push(String(d)));
  const base = `http://127.0.0.1:${port}`;
  const up = await until(async () => proc.exitCode !== null || (await fetch(`${base}/health`)).ok, 15_000, 100);
  if (proc.exitCode !== null) throw new Error(`server exited: ${out.join('')}`);
  if (up) return { proc, base, out };
  throw new Error(`server did not start: ${out.join('')}`);
}

beforeAll(async () => {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const tiers = join(dir, 'tiers.json');
  writeFileSync(tiers, JSON.stringify({ free: { per_minute: PER_MINUTE, per_day: 100_000 } }));
  env = {
    ...process.env, DATABASE_URL: urlWithSchema(schemas.schema()), REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `t${process.pid}${Date.now()}`, CATALOG_DEMO: 'off', TIERS_FILE: tiers, LOG_LEVEL: 'warn',
  };
  cli('migrate');
  servers.push(await startServer(), await startServer());
});

afterAll(async () => {
  for (const s of servers) s.proc.kill('SIGTERM');
  await Promise.all(servers.map((s) => new Promise((r) => (s.proc.exitCode !== null ? r(null) : s.proc.once('exit', r)))));
  await schemas.dropAll();
});

const newKey = (tier: string) => cli('keys', 'create', '--tier', tier).trim().split('\n').pop()!;
const get = (i: number, path: string, key: string) => fetch(`${servers[i].base}${path}`, { headers: { authorization: `Bearer ${key}` } });

describe('two instances, one PostgreSQL, one Redis', () => {
  it('(a) concurrent requests on one key across both admit exactly the limit', async () => {
    // Stay inside one minute window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const key = newKey('free');
    // A socket left idle across the wait may be closed by the server as it is reused; touch each
    // server first so a refused reuse costs a retry here, not a request the count relies on.
    const touch = (base: string) => fetch(`${base}/health`).then((r) => r.arrayBuffer());
    for (const s of servers) await touch(s.base).catch(() => touch(s.base));
    const results = await Promise.all(Array.from({ length: 3 * PER_MINUTE }, (_, i) => get(i % 2, '/v1/products/1', key)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * PER_MINUTE);
    expect(new Set(statuses.filter((s) => s !== 429))).toEqual(new Set([404]));
  });

  it('(b) a key rotated on one is refused at once on the other', async () => {
    const key = newKey('pro');
    expect((await get(1, '/v1/products/1', key)).status).toBe(404);
    const rotated = await fetch(`${servers[0].base}/v1/keys/rotate`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(rotated.status).toBe(200);
    const { api_key: next } = (await rotated.json()) as { api_key: string };
    expect((await get(1, '/v1/products/1', key)).status).toBe(401);
    expect((await get(1, '/v1/products/1', next)).status).toBe(404);
  });

  it('(c) a listing imported beside one instance is served by both, past their caches', async () => {
    const key = newKey('pro');
    const list = '/v1/products?limit=50';
    const before = await (await get(1, list, key)).json();
    expect(JSON.stringify(before)).not.toContain('SCALE-C-1');
    expect((await get(1, list, key)).headers.get('x-cache')).toBe('HIT');
    const file = join(dir, 'c.ndjson');
    writeFileSync(file, JSON.stringify(rec({ sku: 'SCALE-C-1', title: 'Scale test kettle 1.7L' })) + '\n');
    cli('import', file);
    for (const i of [0, 1]) {
      let body = '';
      await until(async () => (body = await (await get(i, list, key)).text()).includes('SCALE-C-1'), 3000, 100);
      expect(body).toContain('SCALE-C-1');
    }
    const found = await get(1, '/v1/products/search?q=kettle&sort_by=relevance', key);
    expect(JSON.stringify(await found.json())).toContain('SCALE-C-1');
  });

  it('(d) a notice published by one process reaches a subscriber in another', async () => {
    const bus = new RedisBus(TEST_REDIS_URL, `${env.REDIS_PREFIX}:bus`);
    await bus.start();
    const got = new Promise<BusMessage>((resolve) => bus.subscribe(resolve));
    const file = join(dir, 'd.ndjson');
    writeFileSync(file, JSON.stringify(rec({ sku: 'SCALE-D-1' })) + '\n');
    cli('import', file);
    expect(await got).toEqual({ type: 'events' });
    await bus.close();
  });
});
