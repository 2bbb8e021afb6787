import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dealChecks } from '../../src/catalog/deal-checks.js';
import { loadDemo } from '../../src/cli/demo.js';
import { generateDemoRecords, type IngestRecordInput } from '../../src/demo/generate.js';
import type { Currency } from '../../src/domain/currencies.js';
import { checkDeal, type DealCheck } from '../../src/domain/honest-deal.js';
import type { Listing } from '../../src/domain/listing.js';
import { makeHarness, type Harness } from '../helpers/app.js';

/**
 * The demo catalog's discounts, judged by the honest-deal rule (docs/deals.md): some sold at their
 * "was" price before the discount (honest), some never did (flagged), decided from the day the
 * catalog is generated, and the same for the same seed.
 */
const LISTINGS = 600;
const SEED = 7;
let h: Harness;
let listings: Listing[];
let checks: Map<number, DealCheck>;

beforeAll(async () => {
  h = await makeHarness();
  await loadDemo(h.c, { listings: LISTINGS, seed: SEED });
  listings = [];
  for await (const l of h.c.store.catalog.scan({}, LISTINGS, 0)) listings.push(l);
  checks = await dealChecks(h.c.store.catalog, listings, h.clock.now());
}, 60_000);
afterAll(() => h.close());

/** Each discounted listing's flag as the rule gives it from the generated records alone, by source and SKU. */
function flagsOf(seed: number): Map<string, boolean | null> {
  const now = new Date('2026-11-20T12:00:00.000Z');
  const byListing = new Map<string, IngestRecordInput[]>();
  for (const r of generateDemoRecords({ listings: LISTINGS, seed, now })) {
    const key = `${r.source}|${r.sku}`;
    byListing.set(key, [...(byListing.get(key) ?? []), r]);
  }
  const flags = new Map<string, boolean | null>();
  for (const [key, records] of byListing) {
    const last = records.at(-1)!;
    const observations = records.map((r) => ({ listingId: 0, price: r.price, currency: r.currency as Currency, source: r.source, observedAt: r.observed_at! }));
    const check = checkDeal({ price: last.price, currency: last.currency as Currency, originalPrice: last.original_price ?? null, lastCheckedAt: last.observed_at! }, observations, now);
    if (check) flags.set(key, check.originalNeverCharged);
  }
  return flags;
}

describe('demo deals', () => {
  it('has honest discounts and flagged ones, every one judged on the day the catalog is made', () => {
    const flags = [...checks.values()].map((c) => c.originalNeverCharged);
    const honest = flags.filter((f) => f === false).length;
    const flagged = flags.filter((f) => f === true).length;
    expect(honest).toBeGreaterThan(flags.length * 0.2);
    expect(flagged).toBeGreaterThan(flags.length * 0.2);
    // The history reaches back over the whole 90-day window: no discount is left unknown.
    expect(honest + flagged).toBe(flags.length);
  });

  it('an honest discount charged its "was" price to the cent before it began; a flagged one never did', async () => {
    const byId = new Map(listings.map((l) => [l.id, l]));
    const honestIds = [...checks].filter(([, c]) => c.originalNeverCharged === false && c.discountStartedAt !== null).map(([id]) => id);
    const flaggedIds = [...checks].filter(([, c]) => c.originalNeverCharged === true).map(([id]) => id);
    const history = await h.c.store.catalog.observationsFor([...honestIds, ...flaggedIds], '2025-01-01T00:00:00.000Z');
    const wasCharged = (id: number) => {
      const l = byId.get(id)!;
      const started = checks.get(id)!.discountStartedAt;
      return (history.get(id) ?? []).some((o) => o.currency === l.currency && new Big(o.price).gte(l.originalPrice!) && (started === null || o.observedAt < started));
    };
    const exactly = honestIds.filter((id) => (history.get(id) ?? []).some((o) => o.price === byId.get(id)!.originalPrice));
    expect(honestIds.filter(wasCharged)).toEqual(honestIds);
    expect(exactly.length).toBeGreaterThan(0);
    expect(flaggedIds.filter(wasCharged)).toEqual([]);
  });

  it('surface A /v1/deals shows both kinds', async () => {
    const { headers } = await h.key('pro');
    const res = await h.app.inject({ url: '/v1/deals?limit=100&min_discount_pct=1', headers });
    expect(res.statusCode, res.body).toBe(200);
    // null: a deal against its own median price, with no "was" price to judge.
    const shown = new Set(res.json().items.map((i: { fake_discount: boolean | null }) => i.fake_discount));
    expect([...shown]).toEqual(expect.arrayContaining([true, false]));
  });

  it('is the same for the same seed, from the records alone as from the store', () => {
    const flags = flagsOf(SEED);
    expect(flagsOf(SEED)).toEqual(flags);
    expect(flagsOf(SEED + 1)).not.toEqual(flags);
    const stored = new Map(listings.filter((l) => checks.has(l.id)).map((l) => [`${l.source}|${l.sku}`, checks.get(l.id)!.originalNeverCharged]));
    expect(stored).toEqual(flags);
  });
});
