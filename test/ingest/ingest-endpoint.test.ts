import { mkdtempSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
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
    // No body and no content type at all (found by the fuzz suite: it was a 500).
    const { headers } = await h.key('pro');
    const none = await h.app.inject({ method: 'POST', url: '/v1/ingest/products', headers });
    expect([none.statusCode, none.json().detail[0].loc]).toEqual([422, ['body']]);
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

describe('a large ingest is streamed and bounded (issue 18 items 4 and 5)', () => {
  /** NDJSON made as it is read, never held whole: `n` lines in chunks of 50. */
  function lines(prefix: string, n: number): Readable {
    let i = 0;
    return new Readable({
      read() {
        if (i >= n) return void this.push(null);
        const chunk: string[] = [];
        for (const end = Math.min(n, i + 50); i < end; i++) chunk.push(JSON.stringify(rec({ sku: `${prefix}-${i}`, title: `Streamed thing ${i}` })));
        this.push(chunk.join('\n') + '\n');
      },
    });
  }

  it('other requests are answered while a large body is still being stored', async () => {
    const { headers } = await h.key('pro');
    let ingestDone = false;
    const ingest = h.app.inject({ method: 'POST', url: '/v1/ingest/products', headers: { ...headers, 'content-type': 'application/x-ndjson' }, payload: lines('S', 3000) })
      .then((r) => { ingestDone = true; return r; });
    // Wait until the ingest has stored something, then ask for something else.
    while ((await h.c.catalog.findBySku('S-0')).length === 0) await new Promise((r) => setImmediate(r));
    const health = await h.app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(ingestDone).toBe(false);
    const r = await ingest;
    expect(r.json()).toMatchObject({ lines: 3000, inserted: 3000, rejected: 0 });
  });

  it('a body over INGEST_MAX_BYTES is 413 in the envelope: at once when declared, midway with what was stored', async () => {
    const small = await makeHarness({ INGEST_MAX_BYTES: '150000' });
    const { headers } = await small.key('pro');
    const declared = await small.app.inject({
      method: 'POST', url: '/v1/ingest/products', headers: { ...headers, 'content-type': 'application/x-ndjson' }, payload: 'x'.repeat(150001),
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json().error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 150000 } });
    const streamed = await small.app.inject({
      method: 'POST', url: '/v1/ingest/products', headers: { ...headers, 'content-type': 'application/x-ndjson' }, payload: lines('L', 800),
    });
    expect(streamed.statusCode).toBe(413);
    const stored = streamed.json().error.details.stored_lines as number;
    expect(stored).toBeGreaterThan(0);
    expect((await small.c.catalog.findBySku('L-0')).length).toBe(1);
    expect((await small.c.catalog.findBySku('L-799')).length).toBe(0);
    await small.close();
  });

  it('the read endpoints take small bodies only: 413 in the envelope', async () => {
    const { headers } = await h.key('pro');
    const r = await h.app.inject({
      method: 'POST', url: '/v1/products/compare', headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ product_ids: [1, 2], pad: 'x'.repeat(300 * 1024) }),
    });
    expect(r.statusCode).toBe(413);
    expect(r.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
