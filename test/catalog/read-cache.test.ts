import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_CACHE_MS, ReadCache } from '../../src/catalog/read-cache.js';
import type { Listing } from '../../src/domain/listing.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { rec } from '../helpers/records.js';

const listing = (id: number, price = '1.00') => ({ id, price }) as Listing;
const byId = (ls: Listing[]) => new Map(ls.map((l) => [l.id, l]));

describe('ReadCache', () => {
  it('loads only the misses and answers in the order asked, leaving out what the store lacks', async () => {
    const cache = new ReadCache<Listing>(() => new Date());
    const asked: number[][] = [];
    const load = async (ids: number[]) => {
      asked.push(ids);
      return byId(ids.filter((id) => id !== 404).map((id) => listing(id)));
    };
    expect([...(await cache.getMany([3, 1, 404], load)).keys()]).toEqual([3, 1]);
    expect([...(await cache.getMany([2, 1, 3], load)).keys()].sort()).toEqual([1, 2, 3]);
    expect(asked).toEqual([[3, 1, 404], [2]]);
  });

  it('a read that began before a clear does not fill the cache afterwards', async () => {
    const cache = new ReadCache<Listing>(() => new Date());
    let price = 'old';
    const load = async (ids: number[]) => {
      const rows = byId(ids.map((id) => listing(id, price)));
      cache.clear(); // a write lands while this read is in flight
      price = 'new';
      return rows;
    };
    expect((await cache.getMany([1], load)).get(1)!.price).toBe('old');
    expect((await cache.getMany([1], async (ids) => byId(ids.map((id) => listing(id, price))))).get(1)!.price).toBe('new');
  });

  it('reads every listing again after READ_CACHE_MS', async () => {
    const clock = new FakeClock();
    const cache = new ReadCache<Listing>(() => clock.now());
    let reads = 0;
    const load = async (ids: number[]) => {
      reads += ids.length;
      return byId(ids.map((id) => listing(id)));
    };
    await cache.getMany([1, 2], load);
    clock.advance(READ_CACHE_MS - 1);
    await cache.getMany([1, 2], load);
    expect(reads).toBe(2);
    clock.advance(1);
    await cache.getMany([1, 2], load);
    expect(reads).toBe(4);
  });
});

describe('search through the read caches', () => {
  let h: Harness;
  beforeEach(async () => { h = await makeHarness(); });
  afterEach(async () => { await h.close(); });

  const search = async (headers: Record<string, string>) =>
    (await h.app.inject({ method: 'GET', url: '/v1/search?q=galaxy', headers })).json() as {
      items: Array<{ sku: string; price: string; last_checked: string; competitor_count: number }>;
    };

  it('shows a price change at once and a re-check within a minute', async () => {
    const { headers } = await h.key();
    await h.ingest([rec({ sku: 'A', price: '100.00', observed_at: '2026-11-20T10:00:00.000Z' })]);
    expect((await search(headers)).items[0].price).toBe('100.00');
    await h.ingest([rec({ sku: 'A', price: '90.00', observed_at: '2026-11-20T11:00:00.000Z' })]);
    expect((await search(headers)).items[0].price).toBe('90.00');

    // The same price again: only last_checked moves, with no event; seen within READ_CACHE_MS.
    await h.ingest([rec({ sku: 'A', price: '90.00', observed_at: '2026-11-20T11:30:00.000Z' })]);
    h.clock.advance(READ_CACHE_MS);
    expect((await search(headers)).items[0].last_checked).toBe('2026-11-20T11:30:00.000Z');
  });

  it('shows a group that grew at once', async () => {
    const { headers } = await h.key();
    await h.ingest([rec({ sku: 'A', gtin: '8806095467580' })]);
    expect((await search(headers)).items[0].competitor_count).toBe(0);
    await h.ingest([rec({ sku: 'B', source: 'lazada_sg', gtin: '8806095467580' })]);
    expect((await search(headers)).items.map((i) => i.competitor_count)).toEqual([1, 1]);
  });
});
