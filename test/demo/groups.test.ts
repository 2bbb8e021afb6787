import { describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { normalizeRecord } from '../../src/catalog/normalize.js';
import { profileOfListing } from '../../src/domain/listing-profile.js';
import { blockingKeys, chooseGroup, MemoryBlocks } from '../../src/domain/matching/index.js';

/**
 * The demo's products through the matcher as ingest runs it (blocking keys, the first
 * MAX_CANDIDATES candidates, chooseGroup): each product is its own group of 1-6 listings,
 * whatever the catalogue's size. The generator once reused a few thousand model names for every
 * product, so groups grew with the catalogue (93 listings at 20,000, 544 at 100,000).
 */
describe('demo catalogue through the matcher', () => {
  it('keeps groups to the products the generator made', () => {
    const blocks = new MemoryBlocks();
    const truth: number[] = [];
    const rates = shippedRates();
    const now = new Date();
    for (const raw of generateDemoRecords({ listings: 20_000, seed: 3, historyDays: 0, groundTruth: true })) {
      const n = normalizeRecord(raw, 1, rates, now);
      if (!n.ok) throw new Error(JSON.stringify(n.rejection));
      const r = n.record;
      const profile = profileOfListing(r);
      const keys = blockingKeys(profile);
      const candidates = blocks.candidates(keys);
      const id = blocks.listings.length;
      blocks.add({ id, groupId: chooseGroup(profile, candidates)?.groupId ?? id, profile }, keys);
      truth.push((r.metadata!.demo_truth as { product: number }).product);
    }
    const groups = new Map<number, number[]>();
    for (const l of blocks.listings) groups.set(l.groupId, [...(groups.get(l.groupId) ?? []), truth[l.id]]);
    // Pairs put in one group that are one product, over all pairs put in one group.
    let pairs = 0;
    let right = 0;
    for (const g of groups.values()) {
      pairs += (g.length * (g.length - 1)) / 2;
      const per = new Map<number, number>();
      for (const p of g) per.set(p, (per.get(p) ?? 0) + 1);
      for (const n of per.values()) right += (n * (n - 1)) / 2;
    }
    const sizes = [...groups.values()].map((g) => g.length);
    expect(right / pairs).toBeGreaterThan(0.9);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
    expect(sizes.filter((n) => n > 6).reduce((a, n) => a + n, 0) / blocks.listings.length).toBeLessThan(0.03);
  }, 30_000);
});
