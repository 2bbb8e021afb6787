import { describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { profileOfListing } from '../../src/domain/listing-profile.js';
import {
  blockingKeys, BulkMatcher, chooseGroup, CompactWriter, encodeProfile, KeyNumbers, MemoryBlocks, writeCompact, type MatchBatch, type MatchProfile,
} from '../../src/domain/matching/index.js';

function demoProfiles(n: number, seed: number): MatchProfile[] {
  return [...generateDemoRecords({ listings: n, seed, historyDays: 0 })].map((r) => profileOfListing({
    title: r.title, description: r.description ?? null, brand: r.brand ?? null, gtin: r.gtin ?? null, mpn: r.mpn ?? null,
    category: r.category ?? null, specs: r.specs ?? null, priceUsd: r.price,
  }));
}

/** Listings first..first+n-1 packed as a profile worker packs them. */
function batch(profiles: MatchProfile[], firstId: number, numbering: KeyNumbers): MatchBatch {
  const w = new CompactWriter(64);
  const numbers: number[] = [];
  const at: number[] = [];
  const textEnds: number[] = [];
  const keyEnds: number[] = [];
  let texts = '';
  for (const p of profiles) {
    at.push(writeCompact(p, w));
    texts += encodeProfile(p);
    textEnds.push(texts.length);
    for (const key of blockingKeys(p)) numbers.push(numbering.of(key));
    keyEnds.push(numbers.length);
  }
  return {
    ids: Int32Array.from(profiles, (_, i) => firstId + i), at: Int32Array.from(at), compact: w.h.slice(0, w.length),
    texts, textEnds: Int32Array.from(textEnds), keyNumbers: Int32Array.from(numbers), keyEnds: Int32Array.from(keyEnds),
  };
}

describe('BulkMatcher', () => {
  it('groups a catalog as row-by-row matching does, batch after batch', () => {
    const profiles = demoProfiles(3000, 17);
    const blocks = new MemoryBlocks();
    const expected: number[] = [];
    for (const [i, p] of profiles.entries()) {
      const keys = blockingKeys(p);
      // MemoryBlocks numbers listings from 0: ids here are i + 1, as a store's.
      const g = chooseGroup(p, blocks.candidates(keys))?.groupId ?? i + 1;
      expected.push(g);
      blocks.add({ id: i, groupId: g, profile: p }, keys);
    }
    const matcher = new BulkMatcher();
    const numbering = new KeyNumbers();
    const got: number[] = [];
    for (let from = 0; from < profiles.length; from += 700) got.push(...matcher.match(batch(profiles.slice(from, from + 700), from + 1, numbering)));
    expect(got).toEqual(expected);
    expect(new Set(got).size).toBeLessThan(2400); // groups formed
  });

  it('refuses listings out of id order', () => {
    const profiles = demoProfiles(4, 2);
    const matcher = new BulkMatcher();
    const numbering = new KeyNumbers();
    matcher.match(batch(profiles.slice(0, 2), 10, numbering));
    expect(() => matcher.match(batch(profiles.slice(2), 5, numbering))).toThrow(/ascend/);
  });
});
