import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Currency } from '../../src/domain/currencies.js';
import { decisionSignals } from '../../src/domain/decision-signals.js';
import { checkDeal, type DealListing } from '../../src/domain/honest-deal.js';
import type { Listing, PriceObservation } from '../../src/domain/listing.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

/** Observations from [days ago, price] pairs, in SGD unless said. */
const obs = (points: Array<[number, string, Currency?]>): PriceObservation[] =>
  points.map(([d, price, currency]) => ({ listingId: 1, price, currency: currency ?? 'SGD', source: 'shopee_sg', observedAt: ago(d * DAY) }));

const deal = (price: string, originalPrice: string | null, over: Partial<DealListing> = {}): DealListing =>
  ({ price, originalPrice, currency: 'SGD', lastCheckedAt: ago(HOUR), ...over });

describe('checkDeal (docs/deals.md)', () => {
  it('is null for a listing that is not discounted', () => {
    expect(checkDeal(deal('80.00', null), obs([[10, '80.00']]), NOW)).toBeNull();
    expect(checkDeal(deal('80.00', '80.00'), obs([[10, '80.00']]), NOW)).toBeNull();
    expect(checkDeal(deal('80.00', '79.99'), obs([[10, '80.00']]), NOW)).toBeNull();
  });

  it('knows nothing without history: every value null, not false', () => {
    expect(checkDeal(deal('80.00', '100.00'), [], NOW)).toEqual({ discountStartedAt: null, priorLow: null, originalNeverCharged: null, highestRecent: null });
  });

  it('a discount that began mid-window: the start, the 30 days before it, and a "was" price that was charged', () => {
    const c = checkDeal(deal('80.00', '100.00'), obs([[200, '100.00'], [20, '80.00']]), NOW)!;
    expect(c).toEqual({ discountStartedAt: ago(20 * DAY), priorLow: '100.00', originalNeverCharged: false, highestRecent: '100.00' });
  });

  it('a price raised just before a "sale": the prior low is the price before the raise', () => {
    const h = obs([[200, '80.00'], [23, '120.00'], [20, '80.00']]);
    const honest = checkDeal(deal('80.00', '120.00'), h, NOW)!;
    expect(honest.discountStartedAt).toBe(ago(20 * DAY));
    expect(honest.priorLow).toBe('80.00');
    expect(honest.originalNeverCharged).toBe(false);
    // The same history advertised against a "was" price of 150: never charged in 90 days.
    const fake = checkDeal(deal('80.00', '150.00'), h, NOW)!;
    expect(fake).toEqual({ discountStartedAt: null, priorLow: null, originalNeverCharged: true, highestRecent: '120.00' });
  });

  it('a discount older than the 90-day window is flagged when the original was not charged within it', () => {
    const c = checkDeal(deal('80.00', '100.00'), obs([[300, '100.00'], [120, '80.00']]), NOW)!;
    expect(c.discountStartedAt).toBe(ago(120 * DAY));
    expect(c.priorLow).toBe('100.00');
    expect(c.originalNeverCharged).toBe(true);
    expect(c.highestRecent).toBe('80.00');
  });

  it('history shorter than a window: the flag is null unless a price reached the original', () => {
    // First seen 40 days ago: the 30 days before a discount 10 days ago are covered, the 90-day window is not.
    const short = checkDeal(deal('80.00', '100.00'), obs([[40, '100.00'], [10, '80.00']]), NOW)!;
    expect(short).toEqual({ discountStartedAt: ago(10 * DAY), priorLow: '100.00', originalNeverCharged: false, highestRecent: '100.00' });
    // First seen 35 days ago: the 30 days before the discount are not covered.
    expect(checkDeal(deal('80.00', '100.00'), obs([[35, '100.00'], [10, '80.00']]), NOW)!.priorLow).toBeNull();
    // Never at 150 in the 40 days seen: unknown, not true.
    expect(checkDeal(deal('80.00', '150.00'), obs([[40, '100.00'], [10, '80.00']]), NOW)).toEqual(
      { discountStartedAt: null, priorLow: null, originalNeverCharged: null, highestRecent: '100.00' });
  });

  it('discounted since first seen: the start is unknown', () => {
    const c = checkDeal(deal('80.00', '100.00'), obs([[50, '85.00'], [10, '80.00']]), NOW)!;
    expect(c.discountStartedAt).toBeNull();
    expect(c.priorLow).toBeNull();
    expect(c.originalNeverCharged).toBeNull();
  });

  it('reads only the history in the current currency, from the last change of currency on', () => {
    const h = obs([[300, '500.00', 'MYR'], [100, '450.00', 'MYR'], [60, '130.00'], [20, '80.00']]);
    expect(checkDeal(deal('80.00', '130.00'), h, NOW)).toEqual({ discountStartedAt: ago(20 * DAY), priorLow: '130.00', originalNeverCharged: false, highestRecent: '130.00' });
    // 500 MYR is no price at or above 150 SGD; the SGD history starts 60 days ago, short of 90.
    expect(checkDeal(deal('80.00', '150.00'), h, NOW)).toEqual({ discountStartedAt: null, priorLow: null, originalNeverCharged: null, highestRecent: '130.00' });
    // A return to a currency does not join its older history: only the suffix counts.
    const back = obs([[300, '160.00'], [200, '400.00', 'MYR'], [60, '130.00'], [20, '80.00']]);
    expect(checkDeal(deal('80.00', '150.00'), back, NOW)!.originalNeverCharged).toBeNull();
    // Joined across the MYR months, the older 160 SGD would wrongly be in force 90 days ago.
    expect(checkDeal(deal('80.00', '150.00'), back.filter((o) => o.currency === 'SGD'), NOW)!.originalNeverCharged).toBe(false);
  });

  it('compares exactly: one cent below the original is below it, at it is not', () => {
    const h = obs([[100, '19.99'], [5, '15.00']]);
    expect(checkDeal(deal('15.00', '20.00'), h, NOW)!.originalNeverCharged).toBe(true);
    expect(checkDeal(deal('15.00', '19.99'), h, NOW)!.originalNeverCharged).toBe(false);
    expect(checkDeal(deal('15.00', '19.990'), h, NOW)!.originalNeverCharged).toBe(false);
  });

  it('counts the current price when the last observation differs from it, and ignores observations after now', () => {
    const h = [...obs([[100, '100.00']]), { listingId: 1, price: '1.00', currency: 'SGD' as Currency, source: 's', observedAt: new Date(NOW.getTime() + DAY).toISOString() }];
    const c = checkDeal(deal('80.00', '100.00', { lastCheckedAt: ago(2 * DAY) }), h, NOW)!;
    expect(c.discountStartedAt).toBe(ago(2 * DAY));
    expect(c.priorLow).toBe('100.00');
  });

  // The rule against a brute-force reading of the same step function, hour by hour.
  it('matches an hour-by-hour reading of the history', () => {
    const NOW_H = NOW.getTime() / HOUR;
    const history = fc.array(fc.record({ hoursAgo: fc.integer({ min: 0, max: 200 * 24 }), cents: fc.integer({ min: 1, max: 200 }) }), { minLength: 1, maxLength: 12 });
    fc.assert(fc.property(history, fc.integer({ min: 2, max: 220 }), (raw, origCents) => {
      const byHour = new Map(raw.map((r) => [r.hoursAgo, r.cents]));
      const points = [...byHour].map(([h, c]) => ({ h: NOW_H - h, c })).sort((a, b) => a.h - b.h);
      const current = points.at(-1)!.c;
      if (current >= origCents) return;
      const text = (c: number) => (c / 100).toFixed(2);
      const observations = points.map((p) => ({ listingId: 1, price: text(p.c), currency: 'SGD' as Currency, source: 's', observedAt: new Date(p.h * HOUR).toISOString() }));
      const got = checkDeal({ price: text(current), originalPrice: text(origCents), currency: 'SGD', lastCheckedAt: observations.at(-1)!.observedAt }, observations, NOW)!;

      const at = (h: number) => { let c: number | null = null; for (const p of points) if (p.h <= h) c = p.c; return c; };
      const first = points[0].h;
      let start = NOW_H;
      while (start - 1 >= first && at(start - 1)! < origCents) start--;
      const startKnown = start > first;
      let low: number | null = null;
      if (startKnown && first <= start - 30 * 24) for (let h = start - 30 * 24; h < start; h++) low = Math.min(low ?? Infinity, at(h)!);
      let high = 0;
      for (let h = Math.max(first, NOW_H - 90 * 24); h <= NOW_H; h++) high = Math.max(high, at(h)!);
      const flag = high >= origCents ? false : first <= NOW_H - 90 * 24 ? true : null;

      expect(got.discountStartedAt).toBe(startKnown ? new Date(start * HOUR).toISOString() : null);
      expect(got.priorLow).toBe(low === null ? null : text(low));
      expect(got.originalNeverCharged).toBe(flag);
      expect(got.highestRecent).toBe(text(high));
    }), { numRuns: 200 });
  });
});

describe('the V2 agent insights', () => {
  const listing = (over: Partial<Listing>): Listing => ({
    id: 1, uuid: 'u', source: 'shopee_sg', sku: 'S', merchantId: null, title: 'T', description: null, brand: 'B', category: null,
    categoryPath: null, gtin: null, mpn: null, price: '80.00', currency: 'SGD', priceSgd: '80.00', priceUsd: null, originalPrice: '150.00',
    url: 'https://x.example/1', affiliateUrl: null, imageUrl: null, rating: null, reviewCount: null, region: 'sg',
    countryCode: 'SG', inStock: true, stockLevel: null, shippingDays: null, specs: null, metadata: null, variants: [], groupId: 1,
    priceTrend: null, referencePrice: null, lastCheckedAt: ago(HOUR), dataUpdatedAt: ago(DAY), createdAt: ago(DAY), updatedAt: ago(DAY),
    ...over,
  });
  const signals = (l: Listing, history: PriceObservation[]) => decisionSignals({
    listing: l, group: null, observations: history, activity: {}, currency: 'SGD', convert: (a) => a, now: NOW,
  }).agentInsights;

  it('cite the numbers of a flagged discount', () => {
    const i = signals(listing({}), obs([[300, '150.00'], [200, '100.00'], [100, '120.00'], [20, '80.00']]));
    expect(i.fakeDiscount).toBe(true);
    expect(i.priorLow).toBe('150.00');
    expect(i.recommendationReason).toContain('the original price SGD 150.00 was not charged in the last 90 days (highest SGD 120.00, lowest SGD 150.00 in the 30 days before the discount)');
    const unknownStart = signals(listing({}), obs([[200, '100.00'], [100, '120.00'], [20, '80.00']]));
    expect(unknownStart.priorLow).toBeNull();
    expect(unknownStart.recommendationReason).toContain('the original price SGD 150.00 was not charged in the last 90 days (highest SGD 120.00);');
  });

  it('say nothing of an honest discount, and leave the flag unknown on a short history', () => {
    const honest = signals(listing({ originalPrice: '120.00' }), obs([[200, '100.00'], [50, '120.00'], [20, '80.00']]));
    expect(honest.fakeDiscount).toBe(false);
    expect(honest.recommendationReason).not.toContain('not charged');
    const short = signals(listing({}), obs([[40, '100.00'], [20, '80.00']]));
    expect(short.fakeDiscount).toBeNull();
    expect(short.recommendationReason).not.toContain('not charged');
  });
});
