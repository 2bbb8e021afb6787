import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Big from 'big.js';
import {
  buyboxConfidence, buyboxOf, groupOffersOf, isOffer, offeredSince, valueScore, type GroupMember,
} from '../../src/domain/buybox.js';
import { decisionSignals } from '../../src/domain/decision-signals.js';
import { demandScore } from '../../src/domain/demand.js';
import { freshnessOf } from '../../src/domain/freshness.js';
import type { Listing } from '../../src/domain/listing.js';
import { changePct } from '../../src/domain/money.js';
import { PriceSeries, priceChange as changeOf, seasonalFactor as factorOf, timeWeightedMean } from '../../src/domain/price-window.js';

const priceChange = (points: PricePoint[], current: string, now: Date) => changeOf(PriceSeries.of(points), current, now);
const seasonalFactor = (points: PricePoint[], now: Date) => factorOf(PriceSeries.of(points), now);
import type { PricePoint } from '../../src/domain/price-stats.js';
import { recommendationReason } from '../../src/domain/recommendation.js';
import { availabilityPrediction, confidenceBand, confidenceScore, dataFreshness } from '../../src/domain/signals.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const cents = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** A listing priced in SGD with the given fields; the rest plain. */
function listing(over: Partial<Listing> = {}): Listing {
  return {
    id: 1, uuid: 'u', source: 'shopee_sg', sku: 'S', merchantId: null, title: 'T', description: null, brand: 'B', category: null,
    categoryPath: null, gtin: null, mpn: null, price: '10.00', currency: 'SGD', priceSgd: '10.00', priceUsd: null, originalPrice: null,
    url: 'https://x.example/1', affiliateUrl: null, imageUrl: 'https://x.example/1.jpg', rating: null, reviewCount: null, region: 'sg',
    countryCode: 'SG', inStock: true, stockLevel: null, shippingDays: null, specs: null, metadata: null, variants: [], groupId: 1,
    priceTrend: null, referencePrice: null, lastCheckedAt: ago(3600_000), dataUpdatedAt: ago(DAY), createdAt: ago(DAY), updatedAt: ago(DAY),
    ...over,
  };
}

const age = fc.integer({ min: 0, max: 60 * DAY });
const member = fc.record({
  // Zero prices (unpriced records) and ties are both likely.
  priceSgdMinor: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 1_000_000 })),
  inStock: fc.constantFrom(true, false, null),
  age,
});
/** A match group of 1-8 members with ids 1..n, and the index of the listing looked at. */
const group = fc.array(member, { minLength: 1, maxLength: 8 }).chain((ms) => fc.tuple(fc.constant(ms.map((m, i): GroupMember => ({
  listingId: i + 1, price: cents(m.priceSgdMinor), currency: 'SGD', priceSgdMinor: m.priceSgdMinor, lastCheckedAt: ago(m.age), inStock: m.inStock,
}))), fc.nat({ max: ms.length - 1 })));
const asListing = (m: GroupMember): Listing => listing({ id: m.listingId, price: m.price, priceSgd: m.price, inStock: m.inStock, lastCheckedAt: m.lastCheckedAt });

describe('confidence_score and its bands', () => {
  it('is within 0-1, its band follows the spec thresholds, and fresher data never scores lower', () => {
    fc.assert(fc.property(age, age, fc.boolean(), fc.boolean(), (a, b, gtin, image) => {
      const l = (t: number) => listing({ lastCheckedAt: ago(t), gtin: gtin ? '123' : null, brand: null, imageUrl: image ? 'i' : null });
      const s = confidenceScore(l(a), NOW);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
      expect(confidenceBand(s)).toBe(s >= 0.9 ? 'high' : s >= 0.7 ? 'medium' : s >= 0.5 ? 'lower' : 'minimal');
      if (a <= b) expect(s).toBeGreaterThanOrEqual(confidenceScore(l(b), NOW));
    }));
    expect([0.9, 0.89, 0.7, 0.69, 0.5, 0.49, 1, 0].map(confidenceBand)).toEqual(['high', 'medium', 'medium', 'lower', 'lower', 'minimal', 'high', 'minimal']);
  });

  it('data_freshness is the last check and its tier; availability is unknown once very stale', () => {
    fc.assert(fc.property(age, fc.constantFrom(true, false, null), (a, inStock) => {
      const l = listing({ lastCheckedAt: ago(a), inStock });
      expect(dataFreshness(l, NOW)).toEqual({ checkedAt: l.lastCheckedAt, tier: freshnessOf(l.lastCheckedAt, NOW) });
      const p = availabilityPrediction(l, NOW);
      if (a > 30 * DAY) expect(p).toBe('unknown');
      else if (inStock === false) expect(p).toBe('out_of_stock');
    }));
  });
});

describe('buy box', () => {
  it('a listing is the winner exactly when it is an offer and no offer of its group is cheaper', () => {
    fc.assert(fc.property(group, ([members, at]) => {
      const since = offeredSince(NOW);
      const offers = members.filter((m) => isOffer(m, since));
      const me = members[at];
      const box = buyboxOf(asListing(me), groupOffersOf(members, NOW), NOW);
      const lowest = offers.length ? Math.min(...offers.map((o) => o.priceSgdMinor)) : null;
      expect(box.winner).toBe(isOffer(me, since) && me.priceSgdMinor === lowest);
      expect(box.offers).toBe(offers.length);
      expect(box.offer?.priceSgdMinor ?? null).toBe(lowest);
      if (box.winner) expect(box.offer!.listingId).toBe(me.listingId);
      expect(box.confidence === null).toBe(box.offer === null);
      if (box.confidence !== null) {
        expect(box.confidence).toBeGreaterThan(0);
        expect(box.confidence).toBeLessThanOrEqual(1);
      }
    }), { numRuns: 2000 });
  });

  it('the group summary picks the cheapest offer, then the latest checked, then the lowest id', () => {
    const m = (listingId: number, priceSgdMinor: number, t: number, inStock: boolean | null = true): GroupMember =>
      ({ listingId, price: cents(priceSgdMinor), currency: 'SGD', priceSgdMinor, lastCheckedAt: ago(t), inStock });
    const g = groupOffersOf([m(1, 500, DAY), m(2, 400, 2 * DAY), m(3, 400, DAY), m(4, 400, DAY), m(5, 100, 0, false), m(6, 0, 0), m(7, 50, 31 * DAY)], NOW);
    expect(g.size).toBe(7);
    expect(g.offers).toBe(4);
    expect(g.cheapest?.listingId).toBe(3);
    // The one offer of a group holds the box at half confidence; every further offer halves the doubt.
    expect(buyboxConfidence({ lastCheckedAt: ago(0) }, 1, NOW)).toBe(0.48);
    expect(buyboxConfidence({ lastCheckedAt: ago(0) }, 2, NOW)).toBe(0.71);
    fc.assert(fc.property(age, fc.integer({ min: 1, max: 50 }), (a, n) => {
      expect(buyboxConfidence({ lastCheckedAt: ago(a) }, n + 1, NOW)).toBeGreaterThanOrEqual(buyboxConfidence({ lastCheckedAt: ago(a) }, n, NOW));
    }));
  });

  it('value_score is within 0-1, null without a buy box, higher for a cheaper price or a better rating', () => {
    const rating = fc.option(fc.integer({ min: 0, max: 500 }).map((r) => r / 100));
    const reviews = fc.option(fc.nat({ max: 100_000 }));
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e7 }), fc.integer({ min: 1, max: 1e7 }), fc.integer({ min: 1, max: 1e7 }), rating, reviews,
      (box, a, b, r, n) => {
        const va = valueScore(a, box, r, n)!;
        expect(va).toBeGreaterThanOrEqual(0);
        expect(va).toBeLessThanOrEqual(1);
        if (a <= b) expect(va).toBeGreaterThanOrEqual(valueScore(b, box, r, n)!);
        if (r !== null && r < 5) expect(valueScore(a, box, Math.min(5, r + 0.5), n)!).toBeGreaterThanOrEqual(va);
      }));
    expect(valueScore(100, null, 4, 10)).toBeNull();
    expect(valueScore(0, 100, 4, 10)).toBeNull();
    // The cheapest, rated 5 from 2 reviews: 0.6 + 0.4 x (5x2 + 2.5x10) / 12 / 5.
    expect(valueScore(100, 100, 5, 2)).toBe(0.83);
  });
});

/** A price history: times strictly increasing from up to 400 days ago to a day ago, prices in cents. */
const history = fc.array(fc.tuple(fc.integer({ min: DAY, max: 400 * DAY }), fc.integer({ min: 1, max: 1_000_000 })), { minLength: 1, maxLength: 12 })
  .map((ps) => [...new Map(ps.map(([t, p]) => [t, p]))].sort((a, b) => b[0] - a[0]).map(([t, p]): PricePoint => ({ at: ago(t), price: cents(p) })));

describe('price trend and change', () => {
  it('compares the price in force 30 days ago (or the first one, after) with the current price', () => {
    fc.assert(fc.property(history, fc.integer({ min: 1, max: 1_000_000 }), (points, current) => {
      const c = priceChange(points, cents(current), NOW)!;
      const start = ago(30 * DAY);
      const before = points.filter((p) => p.at <= start);
      const base = before.length ? before[before.length - 1] : points[0];
      expect(c.percentage).toBe(changePct(new Big(base.price), new Big(cents(current))));
      expect(c.trend).toBe(c.percentage! > 0 ? 'up' : c.percentage! < 0 ? 'down' : 'stable');
      expect(c.days).toBeGreaterThanOrEqual(1);
      expect(c.days).toBeLessThanOrEqual(30);
    }));
  });

  it('a falling history gives down, a rising one up, a flat one stable at 0', () => {
    const walk = fc.array(fc.integer({ min: 100, max: 5000 }), { minLength: 1, maxLength: 10 });
    fc.assert(fc.property(walk, fc.integer({ min: 100, max: 10_000 }), fc.boolean(), (steps, start, falling) => {
      let price = falling ? start * 2 + steps.reduce((a, b) => a + b, 0) : start;
      const points: PricePoint[] = [{ at: ago(40 * DAY), price: cents(price) }];
      steps.forEach((s, i) => points.push({ at: ago((20 - i) * DAY), price: cents((price += falling ? -s : s)) }));
      const c = priceChange(points, points[points.length - 1].price, NOW)!;
      expect(c.trend).toBe(falling ? 'down' : 'up');
      expect(Math.sign(c.percentage!)).toBe(falling ? -1 : 1);
      expect(c.days).toBe(30);
    }));
    expect(priceChange([{ at: ago(3 * DAY), price: '5.00' }], '5.00', NOW)).toEqual({ trend: 'stable', percentage: 0, days: 3 });
  });

  it('is null without history or with less than a day of it; a zero start has a trend but no percentage', () => {
    expect(priceChange([], '1.00', NOW)).toBeNull();
    expect(priceChange([{ at: ago(DAY - 1), price: '2.00' }], '1.00', NOW)).toBeNull();
    expect(priceChange([{ at: ago(2 * DAY), price: '0.00' }], '1.00', NOW)).toEqual({ trend: 'up', percentage: null, days: 2 });
  });
});

describe('seasonal factor', () => {
  it('is null under 180 days of history, 1 for a flat price, bounded by the extremes, and scale-free', () => {
    fc.assert(fc.property(history, (points) => {
      const f = seasonalFactor(points, NOW);
      const oldest = NOW.getTime() - Date.parse(points[0].at);
      if (oldest < 180 * DAY) {
        expect(f).toBeNull();
        return;
      }
      const prices = points.map((p) => Number(p.price));
      const [lo, hi] = [Math.min(...prices), Math.max(...prices)];
      expect(f!).toBeGreaterThanOrEqual(Math.floor((lo / hi) * 1000) / 1000);
      expect(f!).toBeLessThanOrEqual(Math.ceil((hi / lo) * 1000) / 1000);
      const doubled = points.map((p) => ({ ...p, price: new Big(p.price).times(2).toFixed(2) }));
      expect(seasonalFactor(doubled, NOW)).toBe(f);
      if (lo === hi) expect(f).toBe(1);
    }));
  });

  it('is below 1 after a recent drop and weighs each price by the time it held', () => {
    const points = [{ at: ago(300 * DAY), price: '100.00' }, { at: ago(15 * DAY), price: '80.00' }];
    // Last 30 days: 15 at 100 and 15 at 80 = 90; the year: 285 days at 100 and 15 at 80 over 300 = 99.
    expect(timeWeightedMean(PriceSeries.of(points), ago(30 * DAY), NOW.toISOString())!.toFixed(2)).toBe('90.00');
    expect(seasonalFactor(points, NOW)).toBe(0.909);
    expect(seasonalFactor([{ at: ago(179 * DAY), price: '1.00' }], NOW)).toBeNull();
  });
});

describe('demand score', () => {
  const count = fc.option(fc.nat({ max: 1_000_000 }));
  const rating = fc.option(fc.integer({ min: 0, max: 500 }).map((r) => r / 100));
  it('is within 0-1, null only when nothing is known, and never lower for more reviews, clicks, searches or a better rating', () => {
    fc.assert(fc.property(rating, count, fc.option(fc.nat({ max: 10_000 }), { nil: undefined }), fc.option(fc.nat({ max: 10_000 }), { nil: undefined }),
      fc.nat({ max: 1000 }), (r, n, clicks, searches, more) => {
        const d = demandScore({ rating: r, reviewCount: n, clicks, searches });
        if (r === null && n === null && clicks === undefined && searches === undefined) {
          expect(d).toBeNull();
          return;
        }
        expect(d!).toBeGreaterThanOrEqual(0);
        expect(d!).toBeLessThanOrEqual(1);
        expect(demandScore({ rating: r, reviewCount: (n ?? 0) + more, clicks, searches })!).toBeGreaterThanOrEqual(d!);
        if (clicks !== undefined) expect(demandScore({ rating: r, reviewCount: n, clicks: clicks + more, searches })!).toBeGreaterThanOrEqual(d!);
        if (searches !== undefined) expect(demandScore({ rating: r, reviewCount: n, clicks, searches: searches + more })!).toBeGreaterThanOrEqual(d!);
        expect(demandScore({ rating: Math.min(5, (r ?? 0) + 0.5), reviewCount: n, clicks, searches })!).toBeGreaterThanOrEqual(d!);
      }));
  });

  it('uses ratings and reviews alone where no activity is recorded', () => {
    // 0.8 x (1 - e^-1) + 0.2 x 4/5 over weights 0.5 (0.4 + 0.1): reviews 0.8, rating 0.2 of the score.
    expect(demandScore({ rating: 4, reviewCount: 200, clicks: undefined })).toBe(Math.round((0.8 * (1 - Math.exp(-1)) + 0.2 * 0.8) * 100) / 100);
    expect(demandScore({ rating: null, reviewCount: 0, clicks: 0, searches: 0 })).toBe(0);
  });
});

describe('agent insights and the whole record', () => {
  const convert = (amount: string) => amount;
  it('holds every signal to its bounds; a winner\'s buy-box price is its own converted price', () => {
    fc.assert(fc.property(group, history, fc.option(fc.integer({ min: 0, max: 500 })), fc.option(fc.nat({ max: 5000 })),
      ([members, at], points, r, n) => {
        const me = members[at];
        const l = { ...asListing(me), rating: r === null ? null : String(r / 100), reviewCount: n };
        const s = decisionSignals({
          listing: l, group: groupOffersOf(members, NOW), currency: 'SGD', convert, now: NOW, activity: {},
          observations: points.map((p) => ({ listingId: l.id, observedAt: p.at, price: p.price, currency: 'SGD', source: l.source })),
        });
        expect(s.competitorCount).toBe(members.length - 1);
        for (const v of [s.confidenceScore, s.buyboxConfidence, s.demandScore, s.agentInsights.valueScore]) {
          if (v === null) continue;
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
        if (s.agentInsights.buyboxWinner) expect(s.buyboxPrice).toBe(l.price);
        expect(s.agentInsights.valueScore === null).toBe(s.buyboxPrice === null || me.priceSgdMinor === 0);
        expect(s.priceTrend === null).toBe(s.priceChangePercentage === null && s.priceChangeDays === null);
        const reason = s.agentInsights.recommendationReason;
        expect(reason).toMatch(/\.$/);
        expect(reason).not.toMatch(/undefined|null|NaN|Infinity/);
        if (s.buyboxPrice !== null) expect(reason).toContain(`SGD ${s.buyboxPrice}`);
        if (l.rating !== null) expect(reason).toContain(`rated ${l.rating} of 5`);
        if (s.priceChangePercentage) expect(reason).toContain(`${Math.abs(s.priceChangePercentage).toFixed(2)}%`);
      }), { numRuns: 500 });
  });

  it('says why in plain words that cite the numbers', () => {
    const base = {
      currency: 'SGD' as const, price: '479.00', offer: true, inStock: true, lastCheckedAt: ago(3 * 3600_000), buyboxPrice: '479.00', buyboxWinner: true,
      offers: 4, rating: '4.6', reviewCount: 120, change: { trend: 'down' as const, percentage: -4, days: 30 }, valueScore: 0.92, now: NOW,
    };
    expect(recommendationReason(base)).toBe(
      'Cheapest of 4 offers at SGD 479.00; rated 4.6 of 5 from 120 reviews; price down 4.00% in 30 days; value score 0.92; checked 3 hours ago.');
    expect(recommendationReason({ ...base, price: '499.00', buyboxWinner: false, rating: null, change: null, valueScore: null })).toBe(
      'SGD 499.00 (4.18% above); the lowest of 4 offers for this product is SGD 479.00; no rating yet; checked 3 hours ago.');
    expect(recommendationReason({ ...base, offer: false, inStock: false, buyboxWinner: false, offers: 1, lastCheckedAt: ago(3 * DAY) })).toBe(
      'Out of stock when last checked; the lowest of 1 offer for this product is SGD 479.00; rated 4.6 of 5 from 120 reviews; '
      + 'price down 4.00% in 30 days; value score 0.92; checked 3 days ago.');
    expect(recommendationReason({ ...base, offers: 1, change: { trend: 'stable', percentage: 0, days: 1 } })).toBe(
      'The only offer for this product, at SGD 479.00; rated 4.6 of 5 from 120 reviews; price unchanged in 1 day; value score 0.92; checked 3 hours ago.');
  });
});
