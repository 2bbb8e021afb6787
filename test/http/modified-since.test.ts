import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/**
 * `modified_since` on the surface A listing, the export and V2 products (docs/sync.md): the
 * listings whose data changed at or after the bound, paged so a poller misses none, ties included.
 */
let h: Harness;
let headers: { authorization: string };
const T0 = '2026-11-20T08:00:00.000Z';
const T1 = '2026-11-20T09:00:00.000Z';
const T2 = '2026-11-20T10:00:00.000Z';
type Row = { id: number; updated_at: string; sku?: string };

beforeAll(async () => {
  h = await makeHarness();
  headers = (await h.key('pro')).headers;
  // Five listings changed at T1 exactly (ties), two before, one after.
  await h.ingest([
    rec({ sku: 'OLD-1', observed_at: T0 }), rec({ sku: 'OLD-2', observed_at: T0 }),
    ...['TIE-1', 'TIE-2', 'TIE-3', 'TIE-4', 'TIE-5'].map((sku) => rec({ sku, observed_at: T1 })),
    rec({ sku: 'NEW-1', observed_at: T2 }),
  ]);
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

  it('the next poll from the greatest updated_at seen gets the boundary again and every later change, ties included', async () => {
    const first = await pollA(T0, 3);
    const seen = first.reduce((m, r) => (r.updated_at > m ? r.updated_at : m), '');
    expect(seen).toBe(T2);
    // A change at the same instant as the greatest seen, and a later one.
    await h.ingest([rec({ sku: 'TIE-AT-T2', observed_at: T2 }), rec({ sku: 'TIE-1', price: '1.00', observed_at: '2026-11-20T11:00:00.000Z' })]);
    const next = await pollA(seen, 2);
    expect(next.map((r) => r.updated_at)).toEqual([T2, T2, '2026-11-20T11:00:00.000Z']);
    expect(next[2].id).toBe(first.find((r) => r.updated_at === T1)!.id);
  });

  it('a re-import that changes nothing moves no listing into the next poll', async () => {
    await h.ingest([rec({ sku: 'OLD-1', observed_at: '2026-11-20T12:00:00.000Z' })]);
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
});
