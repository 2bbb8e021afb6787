import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

let h: Harness;
beforeAll(async () => { h = await makeHarness(); });
afterAll(async () => { await h.close(); });

const post = async (tier: 'free' | 'pro' | 'enterprise', payload: string, type = 'application/json') =>
  h.app.inject({ method: 'POST', url: '/v1/ingest/products', headers: { ...(await h.key(tier)).headers, 'content-type': type }, payload });

describe('POST /v1/ingest/products', () => {
  it('takes NDJSON sent as application/json, stores the good lines and reports the bad one by number', async () => {
    const body = [JSON.stringify(rec({ sku: 'H1' })), '{broken', JSON.stringify(rec({ sku: 'H2', price: '-1' }))].join('\n');
    const r = await post('pro', body);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ lines: 3, inserted: 1, rejected: 2, rejections: [{ line: 2, field: '(line)' }, { line: 3, field: 'price' }] });
    expect((await h.c.catalog.findBySku('H1')).length).toBe(1);
  });

  it('takes application/x-ndjson and a JSON array; the same records again change nothing', async () => {
    expect((await post('enterprise', JSON.stringify(rec({ sku: 'H3' })), 'application/x-ndjson')).json().inserted).toBe(1);
    const again = await post('pro', JSON.stringify([rec({ sku: 'H3' }), rec({ sku: 'H4' })]));
    expect(again.json()).toMatchObject({ inserted: 1, unchanged: 1, rejected: 0 });
  });

  it('is for pro and enterprise only; an empty body is a validation error', async () => {
    const free = await post('free', JSON.stringify(rec({ sku: 'H5' })));
    expect(free.statusCode).toBe(403);
    expect(free.json().error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await h.c.catalog.findBySku('H5')).length).toBe(0);
    const empty = await post('pro', '   ');
    expect(empty.statusCode).toBe(422);
    expect((await h.app.inject({ method: 'POST', url: '/v1/ingest/products', headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode).toBe(401);
  });
});

describe('POST /v1/ingest/products while another process holds the write lock', () => {
  it('answers 503 with Retry-After once SQLite stops waiting, and the same write goes through after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-busy-'));
    const file = join(dir, 'catalog.db');
    const busy = await makeHarness({ DATABASE_URL: `sqlite:${file}` });
    const key = await busy.key('pro');
    // The store waits 5 s for a lock; the test does not need to.
    (busy.c.store as unknown as { db: { pragma(s: string): unknown } }).db.pragma('busy_timeout = 50');
    const other = new Database(file);
    const send = () => busy.app.inject({
      method: 'POST', url: '/v1/ingest/products', headers: { ...key.headers, 'content-type': 'application/x-ndjson' }, payload: JSON.stringify(rec({ sku: 'BUSY-1' })),
    });
    try {
      other.exec('BEGIN IMMEDIATE'); // as a bulk load's index build holds it
      const r = await send();
      expect(r.statusCode).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
      expect(r.json().error.code).toBe('SERVICE_UNAVAILABLE');
      other.exec('COMMIT');
      expect((await send()).json()).toMatchObject({ inserted: 1, rejected: 0 });
    } finally {
      other.close();
      await busy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
