import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { rankTrending, type PriceMove } from '../../src/domain/trending.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { rec } from '../helpers/records.js';

/**
 * Issue 18 item 17: trending answered 92% of the catalogue (every listing checked in the last 7
 * days, newest first). It is a ranked short list by a documented rule (docs/ranking.md).
 */
const NOW = '2026-11-20T12:00:00.000Z';
const day = (d: number) => new Date(Date.parse(NOW) - d * 86400_000).toISOString();

describe('the trending rule (domain/trending.ts)', () => {
  const move = (id: number, before: string | null, price: string, changes = 1, lastChangeAt = day(1), beforeCurrency = 'SGD'): PriceMove =>
    ({ id, price, currency: 'SGD', before, beforeCurrency, changes, lastChangeAt });

  it('keeps the listings whose price fell, biggest drop first, then more changes, the latest change, the newest id', () => {
    const ranked = rankTrending([
      move(1, '100.00', '90.00'), // -10%
      move(2, '100.00', '75.00'), // -25%
      move(3, '100.00', '110.00'), // a rise
      move(4, '100.00', '100.00', 2), // back where it was
      move(5, '200.00', '180.00', 3), // -10%, more changes
      move(6, '100.00', '90.00', 1, day(0.5)), // -10%, later
      move(7, '50.00', '45.00', 1, day(0.5)), // -10%, as late, newer id
      move(8, null, '10.00'),
      move(9, '100.00', '50.00', 1, day(1), 'MYR'), // another currency is no drop
      move(10, '100.00', '50.00', 0),
    ]);
    expect(ranked.map((t) => t.id)).toEqual([2, 5, 7, 6, 1]);
    expect(ranked.map((t) => t.dropPct)).toEqual([25, 10, 10, 10, 10]);
  });

  it('measures the drop exactly', () => {
    expect(rankTrending([move(1, '0.30', '0.10')])[0].dropPct).toBe(66.67);
    // Less than 0.005%: no drop at two decimals.
    expect(rankTrending([move(1, '1999999.99', '1999999.98')])).toEqual([]);
  });
});

describe('GET /v1/products/trending', () => {
  let h: Harness;
  let auth: { authorization: string };
  beforeAll(async () => {
    h = await makeHarness({}, new FakeClock(Date.parse(NOW)));
    const item = (n: number) => rec({ source: 'shopee_sg', sku: `T${n}`, title: `Trend test item ${n}`, price: '100.00', observed_at: day(30) });
    const at = (n: number, price: string, d: number) => ({ ...item(n), price, observed_at: day(d) });
    // 40 listings, in chronological batches; every one is seen again yesterday (the old rule listed them all).
    await h.ingest(Array.from({ length: 40 }, (_, n) => item(n)));
    await h.ingest([at(7, '60.00', 20)]);
    await h.ingest([at(4, '70.00', 10)]);
    await h.ingest([at(5, '90.00', 6)]);
    await h.ingest([at(5, '85.00', 5)]);
    await h.ingest([at(6, '95.00', 4)]);
    await h.ingest([at(1, '80.00', 3), at(6, '95.50', 3)]);
    await h.ingest([at(2, '95.00', 2), at(3, '120.00', 2)]);
    const current: Record<number, string> = { 1: '80.00', 2: '95.00', 3: '120.00', 4: '70.00', 5: '85.00', 6: '95.50', 7: '75.00' };
    await h.ingest(Array.from({ length: 40 }, (_, n) => at(n, current[n] ?? '100.00', 1)));
    auth = (await h.key('pro')).headers;
  });
  afterAll(async () => { await h.close(); });
  const get = (url: string) => h.app.inject({ method: 'GET', url, headers: auth });

  it('lists the listings whose price fell in the window, ranked by the documented rule', async () => {
    const body = (await get('/v1/products/trending')).json();
    expect(body.items.map((i: { sku: string }) => i.sku)).toEqual(['T1', 'T5', 'T2', 'T6']);
    expect(body.items.map((i: { price_drop_pct: number }) => i.price_drop_pct)).toEqual([20, 15, 5, 4.5]);
    expect(body.items[1]).toMatchObject({ price: '85.00', price_before: '100.00', price_changes: 2, last_price_change_at: day(5) });
    // T3 rose, T4 fell before the window, T7 fell and rose again: none is trending.
    expect(body).toMatchObject({ total: 4, limit: 20, window_days: 7 });
    expect(body.ranked_by).toMatch(/biggest drop/);
  });

  it('is bounded by limit, and refuses limits outside 1..100', async () => {
    const body = (await get('/v1/products/trending?limit=2')).json();
    expect(body.items.map((i: { sku: string }) => i.sku)).toEqual(['T1', 'T5']);
    expect(body.total).toBe(4);
    expect((await get('/v1/products/trending?limit=0')).statusCode).toBe(422);
    expect((await get('/v1/products/trending?limit=101')).statusCode).toBe(422);
  });

  it('narrows to a category', async () => {
    expect((await get('/v1/products/trending?category=smartphones')).json().total).toBe(4);
    expect((await get('/v1/products/trending?category=kettles')).json().total).toBe(0);
  });
});

describe('trending over the demo catalogue', () => {
  it('is a short ranked list, not most of the catalogue', async () => {
    const now = new Date('2026-11-20T00:00:00.000Z');
    const h = await makeHarness({}, new FakeClock(now.getTime()));
    try {
      await h.ingest([...generateDemoRecords({ listings: 2000, seed: 5, now })] as unknown as object[]);
      const auth = (await h.key('pro')).headers;
      const body = (await h.app.inject({ method: 'GET', url: '/v1/products/trending', headers: auth })).json();
      expect(body.items).toHaveLength(20);
      expect(body.total).toBeGreaterThan(20);
      expect(body.total).toBeLessThan(2000 * 0.25);
      const drops = body.items.map((i: { price_drop_pct: number }) => i.price_drop_pct);
      expect(drops).toEqual([...drops].sort((a, b) => b - a));
      expect(drops.every((d: number) => d > 0)).toBe(true);
    } finally {
      await h.close();
    }
  }, 60_000);
});
