import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/**
 * `modified_since` on the surface A listing, the export and V2 products (docs/sync.md): the
 * listings the server changed at or after the bound (by its clock, whenever the feed observed
 * them), paged so a poller misses none, ties included. Here each write happens when the harness
 * clock says, which is also when the feed observed it, unless a test is about a late feed.
 */
let h: Harness;
let headers: { authorization: string };
const T0 = '2026-11-20T08:00:00.000Z';
const T1 = '2026-11-20T09:00:00.000Z';
const T2 = '2026-11-20T10:00:00.000Z';
type Row = { id: number; updated_at: string; sku?: string };

/** Ingests the lines as the server does at `time`. */
async function ingestAt(time: string, lines: object[]) {
  h.clock.set(time);
  await h.ingest(lines);
}

beforeAll(async () => {
  h = await makeHarness();
  headers = (await h.key('pro')).headers;
  // Five listings changed at T1 exactly (ties), two before, one after.
  await ingestAt(T0, [rec({ sku: 'OLD-1', observed_at: T0 }), rec({ sku: 'OLD-2', observed_at: T0 })]);
  await ingestAt(T1, ['TIE-1', 'TIE-2', 'TIE-3', 'TIE-4', 'TIE-5'].map((sku) => rec({ sku, observed_at: T1 })));
  await ingestAt(T2, [rec({ sku: 'NEW-1', observed_at: T2 })]);
});
afterAll(() => h.close());

const get = async (url: string) => {
  const res = await h.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

/** Every page of the surface A listing from `since`, by next_cursor. */
async function pollA(since: string, limit: number): Promise<Row[]> {
  const out: Row[] = [];
  let cursor: string | null = null;
  do {
    const page = await get(`/v1/products?limit=${limit}&modified_since=${encodeURIComponent(since)}${cursor ? `&cursor=${cursor}` : ''}`);
    out.push(...page.data);
    cursor = page.meta.next_cursor;
  } while (cursor);
  return out;
}

describe('modified_since', () => {
  it('surface A: pages in change order then id, across ties, missing and repeating nothing', async () => {
    const rows = await pollA(T1, 2);
    expect(rows.map((r) => r.updated_at)).toEqual([T1, T1, T1, T1, T1, T2]);
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(6);
    expect(ids.slice(0, 5)).toEqual([...ids.slice(0, 5)].sort((a, b) => a - b));
    expect((await get(`/v1/products?modified_since=${encodeURIComponent(T1)}&limit=50`)).meta.total).toBe(6);
  });

  it('the next poll from the time of the last gets the boundary again and every later change, ties included', async () => {
    const first = await pollA(T0, 3);
    expect(first).toHaveLength(8);
    // The poll ran at T2 by the server's clock; a change at that same instant, and a later one.
    const lastPoll = T2;
    await ingestAt(T2, [rec({ sku: 'TIE-AT-T2', observed_at: T2 })]);
    await ingestAt('2026-11-20T11:00:00.000Z', [rec({ sku: 'TIE-1', price: '1.00', observed_at: '2026-11-20T11:00:00.000Z' })]);
    const next = await pollA(lastPoll, 2);
    expect(next.map((r) => r.updated_at)).toEqual([T2, T2, '2026-11-20T11:00:00.000Z']);
    expect(next[2].id).toBe(first.find((r) => r.updated_at === T1)!.id);
  });

  it('a re-import that changes nothing moves no listing into the next poll', async () => {
    await ingestAt('2026-11-20T12:00:00.000Z', [rec({ sku: 'OLD-1', observed_at: '2026-11-20T12:00:00.000Z' })]);
    const rows = await pollA('2026-11-20T11:30:00.000Z', 10);
    expect(rows).toEqual([]);
  });

  it('V2 products: the same set, paged by after in id order', async () => {
    const all: Row[] = [];
    let after = 0;
    for (;;) {
      const page = await get(`/v2/products?limit=2&after=${after}&modified_since=${encodeURIComponent(T1)}`);
      all.push(...page.items);
      if (!page.has_more) break;
      after = page.items[page.items.length - 1].id;
    }
    const a = (await pollA(T1, 50)).map((r) => r.id).sort((x, y) => x - y);
    expect(all.map((r) => r.id)).toEqual(a);
    expect(all.every((r) => r.updated_at >= T1)).toBe(true);
  });

  it('export: only the listings changed since, in id order', async () => {
    const rows = await get(`/v1/products/export?format=json&modified_since=${encodeURIComponent(T2)}`) as Row[];
    expect(rows.length).toBe(3);
    expect(rows.every((r) => r.updated_at >= T2)).toBe(true);
    // Any zone: the same instant in +07:00.
    const zoned = await get(`/v1/products/export?format=json&modified_since=${encodeURIComponent('2026-11-20T17:00:00+07:00')}`) as Row[];
    expect(zoned.map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it('an invalid time is a 422 naming modified_since on each endpoint', async () => {
    for (const url of ['/v1/products', '/v1/products/export', '/v2/products']) {
      for (const bad of ['yesterday', '2026-11-20', '2026-13-40T00:00:00Z']) {
        const res = await h.app.inject({ method: 'GET', url: `${url}?modified_since=${encodeURIComponent(bad)}`, headers });
        expect(res.statusCode, `${url} ${bad}`).toBe(422);
        expect(res.body).toContain('modified_since');
      }
    }
  });

  it('a late feed: what it observed before the last poll but delivered after is in the next poll, updated_at as observed', async () => {
    const lastPoll = '2026-11-20T12:30:00.000Z';
    const late = '2026-11-20T12:10:00.000Z';
    // At 13:00 a lagging feed delivers a new listing and a change of OLD-2, both observed at 12:10.
    await ingestAt('2026-11-20T13:00:00.000Z', [rec({ sku: 'LATE-NEW', observed_at: late }), rec({ sku: 'OLD-2', price: '459.00', observed_at: late })]);
    const rows = await pollA(lastPoll, 1) as Array<Row & { price: string }>;
    expect(rows.map((r) => [r.sku, r.updated_at]).sort()).toEqual([['LATE-NEW', late], ['OLD-2', late]]);
    expect(rows.find((r) => r.sku === 'OLD-2')!.price).toBe('459.00');
    const v2 = await get(`/v2/products?limit=50&after=0&modified_since=${encodeURIComponent(lastPoll)}`);
    expect(v2.items.map((r: Row) => r.id)).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
    const exported = await get(`/v1/products/export?format=json&modified_since=${encodeURIComponent(lastPoll)}`) as Row[];
    expect(exported.map((r) => r.id)).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
    // The same feed again at 14:00, observed later and unchanged: not in a poll after 13:00.
    await ingestAt('2026-11-20T14:00:00.000Z', [rec({ sku: 'LATE-NEW', observed_at: '2026-11-20T13:50:00.000Z' }),
      rec({ sku: 'OLD-2', price: '459.00', observed_at: '2026-11-20T13:50:00.000Z' })]);
    expect(await pollA('2026-11-20T13:00:00.001Z', 10)).toEqual([]);
    expect((await pollA(lastPoll, 10)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it('a real answer carries the Date a poller takes its next bound from (the server\'s clock)', async () => {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/v1/products?limit=1&modified_since=${encodeURIComponent(T0)}`, { headers });
    expect(res.status).toBe(200);
    expect(Math.abs(Date.parse(res.headers.get('date') ?? '') - Date.now())).toBeLessThan(60_000);
  });
});
