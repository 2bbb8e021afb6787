import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { freePort, untilReady } from '../../bench/processes.js';
import { Receiver, verify } from '../webhooks/receiver.js';
import { until } from '../helpers/until.js';

/**
 * Issue 22, faults: a `catalog serve` is killed (SIGKILL) with webhook deliveries pending and
 * started again on the same store. Every event reaches the receiver, and none whose success was
 * recorded before the kill is sent again.
 */
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'catalog.js');
const N = 40;
let dir: string;
let rx: Receiver;
const procs: ChildProcess[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-kill-'));
  rx = await new Receiver().start();
});
afterEach(async () => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('a server killed with deliveries pending loses none after a restart, and repeats none it had recorded', async () => {
  const db = join(dir, 'catalog.db');
  const env = {
    ...process.env, DATABASE_URL: `sqlite:${db}`, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off', LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_CONCURRENCY: '4', WEBHOOK_RETRY_BASE_MS: '200',
  };
  const cli = (...a: string[]) => execFileSync(process.execPath, [bin, ...a], { env, cwd: root }).toString();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const start = async () => {
    const p = spawn(process.execPath, [bin, 'serve'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout!.on('data', (d) => output.push(String(d)));
    p.stderr!.on('data', (d) => output.push(String(d)));
    procs.push(p);
    await untilReady(base, 15_000);
    return p;
  };

  const key = cli('keys', 'create', '--tier', 'pro').trim().split('\n').pop()!;
  const line = (i: number, price: string, minute: number) => JSON.stringify({
    source: 'kill_sg', sku: `K-${i}`, title: `Kill test widget ${i}`, price, currency: 'SGD', url: `https://shop.example.com/k/${i}`,
    observed_at: new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString(),
  });
  writeFileSync(join(dir, 'base.ndjson'), Array.from({ length: N }, (_, i) => line(i, '100.00', 0)).join('\n'));
  writeFileSync(join(dir, 'moves.ndjson'), Array.from({ length: N }, (_, i) => line(i, '80.00', 1)).join('\n'));
  cli('import', join(dir, 'base.ndjson'));

  let server = await start();
  // WEBHOOK_ALLOW_HOSTS is for development and tests: a server started with it says so.
  await tick(100);
  expect(output.join('')).toContain('WEBHOOK_ALLOW_HOSTS is set');
  expect(output.join('')).not.toContain('whsec_');
  const created = await fetch(`${base}/v1/webhooks`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: rx.url(), events: ['price_change'] }),
  });
  expect(created.status).toBe(201);
  const { secret } = (await created.json()) as { secret: string };
  // Slow answers: 4 in flight, about 13 a second, so the kill finds deliveries sent, in flight and queued.
  rx.answer = (_r, res) => void setTimeout(() => res.writeHead(200).end('ok'), 300);
  cli('import', join(dir, 'moves.ndjson'));
  await until(() => rx.received.length >= 10, 5000);
  server.kill('SIGKILL');
  await new Promise((r) => server.once('exit', r));
  const beforeKill = rx.received.length;
  expect(beforeKill).toBeGreaterThan(0);
  expect(beforeKill).toBeLessThan(N);

  const store = createSqliteStore(db);
  const subId = (await store.webhooks.activeSubscriptions(['pro']))[0].id;
  const recorded = new Set((await store.webhooks.deliveries(subId, { status: 'succeeded', limit: 100, offset: 0 })).items.map((d) => d.id));
  const pending = (await store.webhooks.deliveries(subId, { status: 'pending', limit: 100, offset: 0 })).total;
  await store.close();
  expect(recorded.size + pending).toBe(N);
  expect(pending).toBeGreaterThan(0);

  rx.answer = (_r, res) => res.writeHead(200).end('ok');
  server = await start();
  // The killed server's leases end 2 x 1 s + 5 s after its claims: its in-flight deliveries follow then.
  await until(() => new Set(rx.received.map((r) => r.headers['webhook-id'])).size >= N, 20_000, 50);
  const ids = rx.received.map((r) => String(r.headers['webhook-id']));
  expect(new Set(ids).size).toBe(N);
  const afterRestart = ids.slice(beforeKill);
  expect(afterRestart.filter((id) => recorded.has(id))).toEqual([]);
  for (const r of rx.received) verify(secret, r);
  expect(output.join('')).not.toContain(secret.slice(6));
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
});
