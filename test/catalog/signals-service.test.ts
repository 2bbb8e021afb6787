import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignalsService, type DemandCounts } from '../../src/catalog/signals-service.js';
import type { Listing } from '../../src/domain/listing.js';
import type { CatalogStore } from '../../src/store/types.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { rec } from '../helpers/records.js';

/** The store with every call counted by method name. */
function counted(store: CatalogStore): { store: CatalogStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

describe('SignalsService', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  const all = async (): Promise<Listing[]> => h.c.store.catalog.getMany(Array.from({ length: 200 }, (_, i) => i + 1));

  it('reads a page\'s groups, histories and demand counts once each, whatever its size', async () => {
    const filler = Array.from({ length: 80 }, (_, i) => rec({ sku: `F${i}`, title: `Filler product number ${i} ${'xyz'.repeat(i % 7)}`, price: `${10 + i}.00` }));
    await h.ingest([...CATALOG, ...filler]);
    const listings = await all();
    expect(listings.length).toBe(86);
    const { store, calls } = counted(h.c.store.catalog);
    const asked: Array<[string, number[]]> = [];
    const demand: DemandCounts = {
      async clicksFor(ids) { asked.push(['clicks', ids]); return new Map(); },
      async searchesFor(ids) { asked.push(['searches', ids]); return new Map(); },
    };
    const signals = await new SignalsService(store, h.c.fx, () => h.clock.now(), demand).of(listings, 'SGD');
    expect(signals).toHaveLength(86);
    expect(Object.fromEntries(calls)).toEqual({ groupOffers: 1, observationsFor: 1 });
    expect(asked.map(([k, ids]) => [k, ids.length])).toEqual([['clicks', 86], ['searches', 86]]);
    expect(await new SignalsService(store, h.c.fx, () => h.clock.now()).of([], 'SGD')).toEqual([]);
    expect(Object.fromEntries(calls)).toEqual({ groupOffers: 1, observationsFor: 1 });
  });

  it('the cheapest offer of a group wins its buy box; every member sees the same buy-box price', async () => {
    await h.ingest(CATALOG);
    const listings = await all();
    const phones = listings.filter((l) => l.gtin === '8806095426280');
    expect(phones).toHaveLength(3);
    for (const currency of ['SGD', 'USD'] as const) {
      const signals = await h.c.signals.of(phones, currency);
      const cheapest = phones.reduce((a, b) => (Number(a.priceSgd) <= Number(b.priceSgd) ? a : b));
      const boxPrice = h.c.fx.convertText(cheapest.price, cheapest.currency, currency);
      signals.forEach((s, i) => {
        expect(s.agentInsights.buyboxWinner).toBe(phones[i].id === cheapest.id);
        expect(s.buyboxPrice).toBe(boxPrice);
        expect(s.currency).toBe(currency);
        expect(s.competitorCount).toBe(2);
        // Three fresh offers: 0.95 x (1 - 0.5^3).
        expect(s.buyboxConfidence).toBe(0.83);
        expect(s.agentInsights.recommendationReason).toContain(`${currency} ${boxPrice}`);
      });
      expect(signals.find((s) => s.agentInsights.buyboxWinner)!.agentInsights.recommendationReason)
        .toMatch(new RegExp(`^Cheapest of 3 offers at ${currency} ${boxPrice.replace('.', '\\.')};`));
    }
  });

  it('an out-of-stock listing alone in its group has no buy box and says why', async () => {
    await h.ingest(CATALOG);
    const kettle = (await all()).find((l) => l.sku === 'SG-KETTLE')!;
    const s = await h.c.signals.one(kettle, 'SGD');
    expect(s).toMatchObject({
      competitorCount: 0, buyboxPrice: null, buyboxConfidence: null, availabilityPrediction: 'out_of_stock',
      agentInsights: { buyboxWinner: false, valueScore: null },
    });
    expect(s.agentInsights.recommendationReason).toBe('Out of stock when last checked; rated 4.4 of 5 from 120 reviews; checked 2 hours ago.');
  });

  it('derives the trend, change and seasonal factor from the stored history', async () => {
    // Seen at 500.00 for most of a year, 450.00 since 10 days ago.
    await h.ingest([rec({ price: '500.00', observed_at: '2026-01-01T00:00:00.000Z' })]);
    await h.ingest([rec({ price: '450.00', observed_at: '2026-11-10T12:00:00.000Z' })]);
    await h.ingest([rec({ sku: 'NEW', source: 'lazada_sg', title: 'Philips Kettle', brand: 'Philips', price: '20.00', observed_at: '2026-11-20T11:00:00.000Z' })]);
    const [phone, kettle] = await all();
    const [p, k] = await h.c.signals.of([phone, kettle], 'SGD');
    expect(p).toMatchObject({ priceTrend: 'down', priceChangePercentage: -10, priceChangeDays: 30 });
    // Last 30 days: 20 at 500 and 10 at 450; the year from the first sighting: 313.5 days at 500 and 10 at 450.
    const recent = (20 * 500 + 10 * 450) / 30;
    const year = (313.5 * 500 + 10 * 450) / 323.5;
    expect(p.seasonalFactor).toBe(Math.round((recent / year) * 1000) / 1000);
    expect(p.agentInsights.recommendationReason).toContain('price down 10.00% in 30 days');
    // A listing first seen an hour ago has no trend yet, and no year to compare with.
    expect(k).toMatchObject({ priceTrend: null, priceChangePercentage: null, priceChangeDays: null, seasonalFactor: null });
  });

  it('demand reads ratings and reviews, and clicks and searches where a deployment records them', async () => {
    await h.ingest([rec({ review_count: 200, rating: 4 }), rec({ sku: 'Q', source: 'lazada_sg', title: 'Unrated thing', rating: null, review_count: null })]);
    const listings = await all();
    const plain = await new SignalsService(h.c.store.catalog, h.c.fx, () => h.clock.now()).of(listings, 'SGD');
    expect(plain.map((s) => s.demandScore)).toEqual([Math.round((0.8 * (1 - Math.exp(-1)) + 0.2 * 0.8) * 100) / 100, null]);
    // The container's service reads the clicks surface B records: none yet, so they weigh in as 0.
    const served = await h.c.signals.of(listings, 'SGD');
    expect(served.map((s) => s.demandScore)).toEqual([Math.round(((0.4 * (1 - Math.exp(-1)) + 0.1 * 0.8) / 0.8) * 100) / 100, 0]);
    const demand: DemandCounts = {
      async clicksFor() { return new Map([[1, 20]]); },
    };
    const withClicks = await new SignalsService(h.c.store.catalog, h.c.fx, () => h.clock.now(), demand).of(listings, 'SGD');
    // Reviews 0.4, rating 0.1, clicks 0.3 of the score; a listing without clicks counts 0 of them.
    const e = 1 - Math.exp(-1);
    expect(withClicks.map((s) => s.demandScore)).toEqual([Math.round(((0.4 * e + 0.1 * 0.8 + 0.3 * e) / 0.8) * 100) / 100, 0]);
  });
});
