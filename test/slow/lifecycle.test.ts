import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { IngestService } from '../../src/catalog/ingest.js';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { freePort } from '../../bench/processes.js';
import { rec } from '../helpers/records.js';
import { until } from '../helpers/until.js';

/**
 * Issue 18 items 7 and 8, on real processes: a server listens before a killed import is finished
 * and says so on /health; signals reach the process that works; a drained shutdown; no orphans.
 */
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'catalog.js');
let dir: string;
const procs: ChildProcess[] = [];
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lifecycle-')); });
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});


const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const exited = (p: ChildProcess) => new Promise<number | null>((r) => (p.exitCode !== null ? r(p.exitCode) : p.once('exit', (code) => r(code))));
const childrenOf = (pid: number) => spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);

async function untilHealthy(base: string, seen: Array<{ status: number; body: { status?: string; reason?: string } }>): Promise<void> {
  const healthy = await until(async () => {
    const r = await fetch(`${base}/health`);
    seen.push({ status: r.status, body: (await r.json()) as { status?: string; reason?: string } });
    return r.status === 200;
  }, 60_000, 10);
  if (!healthy) throw new Error('never healthy');
}

function serve(env: Record<string, string>, argv = [bin, 'serve'], command = process.execPath): { p: ChildProcess; output: () => string } {
  let output = '';
  const p = spawn(command, argv, { cwd: root, env: { ...process.env, CATALOG_DEMO: 'off', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  p.stdout!.on('data', (d) => { output += d; });
  p.stderr!.on('data', (d) => { output += d; });
  procs.push(p);
  return { p, output: () => output };
}

describe('a start after a killed import (item 7)', () => {
  it('listens at once, answers 503 with the reason while recovering, logs progress, then serves', async () => {
    const path = join(dir, 'crashed.db');
    const store = createSqliteStore(path);
    expect(store.catalog.startBulkLoad()).toBe(true);
    const text = [...generateDemoRecords({ listings: 20_000, seed: 3, historyDays: 0, now: new Date('2026-11-20T00:00:00Z') })].map((r) => JSON.stringify(r)).join('\n');
    await new IngestService(store.catalog, () => shippedRates()).ingestStream(Readable.from([text]), { batchSize: 1000 });
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    store.db.prepare('UPDATE bulk_load SET pid = ?').run(Number(gone));
    await store.close();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const { p, output } = serve({ DATABASE_URL: `sqlite:${path}`, PORT: String(port) });
    const seen: Array<{ status: number; body: { status?: string; reason?: string } }> = [];
    await untilHealthy(base, seen);
    const starting = seen.find((s) => s.status === 503);
    expect(starting?.body).toMatchObject({ status: 'starting', reason: expect.stringContaining('interrupted bulk load') });
    expect(output()).toMatch(/recovery: matched \d+ of 20000 listings/);
    // /health turns 200 inside the recovery, so the log line may reach the pipe a moment later
    await until(() => output().includes('recovery done'), 5000, 10);
    expect(output()).toContain('recovery done');
    p.kill('SIGTERM');
    expect(await exited(p)).toBe(0);
    const reopened = createSqliteStore(path);
    expect(reopened.recovery.needed()).toBe(false);
    expect(reopened.db.prepare('SELECT count(*) FROM listings WHERE match_profile IS NULL').pluck().get()).toBe(0);
    await reopened.close();
  }, 120_000);
});

describe('signals (item 8)', () => {
  it('SIGTERM to `npm start` stops the server itself', async () => {
    const port = await freePort();
    const { p } = serve({ DATABASE_URL: `sqlite:${join(dir, 'npm.db')}`, PORT: String(port) }, ['start', '--silent'], 'npm');
    await untilHealthy(`http://127.0.0.1:${port}`, []);
    const servers = childrenOf(p.pid!);
    expect(servers.length).toBeGreaterThan(0);
    p.kill('SIGTERM');
    await exited(p);
    await until(() => !servers.some(alive), 5000, 50);
    expect(servers.filter(alive)).toEqual([]);
  }, 60_000);

  it('an in-flight request finishes after SIGTERM; then the process exits 0', async () => {
    const port = await freePort();
    const env = { DATABASE_URL: `sqlite:${join(dir, 'drain.db')}`, PORT: String(port) };
    const key = spawnSync(process.execPath, [bin, 'keys', 'create', '--tier', 'pro'], { env: { ...process.env, ...env, CATALOG_DEMO: 'off' }, encoding: 'utf8' }).stdout.trim().split('\n').pop()!;
    const { p, output } = serve(env);
    await untilHealthy(`http://127.0.0.1:${port}`, []);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`http://127.0.0.1:${port}/v1/ingest/products`, {
        method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      }, (res) => {
        let body = '';
        res.on('data', (d) => { body += d; });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write(JSON.stringify(rec({ sku: 'D-1' })) + '\n');
      setTimeout(() => {
        p.kill('SIGTERM');
        setTimeout(() => req.end(JSON.stringify(rec({ sku: 'D-2' })) + '\n'), 300);
      }, 300);
    });
    const r = await answer;
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ inserted: 2 });
    expect(await exited(p)).toBe(0);
    expect(output()).toContain('draining in-flight requests');
  }, 60_000);

  it('kill -9 of `catalog import` leaves no child running', async () => {
    const p = spawn(process.execPath, [bin, 'import', '-'], {
      cwd: root, env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'import.db')}`, CATALOG_DEMO: 'off' }, stdio: ['pipe', 'ignore', 'ignore'],
    });
    procs.push(p);
    let children: number[] = [];
    await until(() => (children = childrenOf(p.pid!)).length > 0, 5000);
    expect(children.length).toBe(1);
    p.kill('SIGKILL');
    await until(() => !alive(children[0]), 5000);
    expect(alive(children[0])).toBe(false);
  }, 30_000);
});

describe('catalog import and the embedded store\'s files', () => {
  it('leaves no WAL behind: the database file alone holds what it wrote, a bulk load or not', () => {
    const db = join(dir, 'imported.db');
    const feed = join(dir, 'feed.ndjson');
    const env = { ...process.env, DATABASE_URL: `sqlite:${db}`, CATALOG_DEMO: 'off' };
    for (const [price, day] of [['10.00', 20], ['11.00', 21]]) {
      writeFileSync(feed, Array.from({ length: 3000 }, (_, i) =>
        JSON.stringify(rec({ sku: `W-${i}`, title: `Widget ${i}`, price, observed_at: `2026-11-${day}T10:00:00.000Z` }))).join('\n'));
      const r = spawnSync(process.execPath, [bin, 'import', feed], { env, encoding: 'utf8' });
      expect(r.stdout).toContain('rejected 0');
      // The checkpoint worker closed its connection before the writer's: the writer's close, the last, removed the WAL.
      expect(existsSync(`${db}-wal`)).toBe(false);
    }
    copyFileSync(db, join(dir, 'copy.db'));
    const copy = new BetterSqlite3(join(dir, 'copy.db'), { readonly: true });
    expect(copy.prepare("SELECT count(*) FROM listings WHERE price = '11.00'").pluck().get()).toBe(3000);
    copy.close();
  });
});
