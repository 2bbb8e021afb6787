import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { profileOfListing } from '../../src/domain/listing-profile.js';
import {
  blockingKeys, buildProfile, chooseGroup, compareProfiles, GROUP_THRESHOLD, MemoryBlocks, type GroupCandidate, type MatchProfile,
} from '../../src/domain/matching/index.js';
import { compactProfile, mayBeExact } from '../../src/domain/matching/prefilter.js';

// Words that exercise every way two titles can share something: equal tokens, joins
// ("coolpix s550" ~ "coolpixs550p"), code stems ("f8n065blk" ~ "f8n065"), code extensions
// ("eos40d" ~ "eos40dbody"), brands inside titles, editions, platforms, offer kinds, numbers.
const words = ['apple', 'iphone', '15', '128gb', 'case', 'for', 'samsung', 'galaxy', 'a55', 'sm-a556b', 'sm-a556e', 'black',
  'bundle', 'điện', 'thoại', 'โทรศัพท์', 'pro', 'premium', 'upgrade', 'mac', 'win', '2007', '10.4', '10.4.6', 'kdc-c669', 'kdcc669',
  'coolpix', 's550', 'coolpixs550p', 'eos40d', 'eos40dbody', 'f8n065blk', 'f8n065', 'nikon', 'canon', 'adobe', 'photoshop', 'cs3'];
const title = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 7 }).map((w) => w.join(' '));
const input = fc.record({
  title,
  brand: fc.option(fc.constantFrom('Apple', 'Samsung', 'Nikon', 'Canon', 'Adobe Systems')),
  gtin: fc.option(fc.constantFrom('012345678905', '4006381333931')),
  mpn: fc.option(fc.constantFrom('SM-A556B', 'EOS40D', 'f8n065', '')),
  category: fc.constant(null),
  specs: fc.constant(null),
  priceUsd: fc.option(fc.constantFrom('1.00', '399.99', '420', '1200')),
  description: fc.option(fc.constantFrom('model SM-A556B 5G', 'kdc-c669 changer', 'the EOS40D body', 'f8n065blk sleeve')),
});

/** chooseGroup as written before the prefilter: every candidate compared in full. */
function chooseGroupReference(p: MatchProfile, candidates: readonly GroupCandidate[]): number | null {
  const byGroup = new Map<number, { sum: number; n: number; exact: boolean }>();
  for (const c of candidates) {
    const r = compareProfiles(p, c.profile);
    const g = byGroup.get(c.groupId) ?? { sum: 0, n: 0, exact: false };
    g.sum += r.matchClass === 'exact' ? r.score : 0;
    g.n += 1;
    g.exact ||= r.matchClass === 'exact';
    byGroup.set(c.groupId, g);
  }
  let chosen: { groupId: number; mean: number } | null = null;
  for (const [groupId, g] of byGroup) {
    const mean = g.sum / g.n;
    if (!g.exact || mean < GROUP_THRESHOLD) continue;
    if (chosen === null || mean > chosen.mean) chosen = { groupId, mean };
  }
  return chosen?.groupId ?? null;
}

describe('mayBeExact (the prefilter of chooseGroup)', () => {
  it('never rules out a comparison that is exact', () => {
    let exact = 0;
    let ruledOut = 0;
    fc.assert(
      fc.property(input, input, (x, y) => {
        const a = buildProfile(x);
        const b = buildProfile(y);
        if (!mayBeExact(a, compactProfile(b))) ruledOut++;
        if (compareProfiles(a, b).matchClass === 'exact') {
          exact++;
          expect(mayBeExact(a, compactProfile(b))).toBe(true);
          expect(mayBeExact(b, compactProfile(a))).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
    // Both outcomes occur often enough for the property to mean something.
    expect(exact).toBeGreaterThan(50);
    expect(ruledOut).toBeGreaterThan(500);
  });

  it('leaves every group decision of an incremental grouping unchanged, and skips most candidates', () => {
    const profiles: MatchProfile[] = [];
    for (const r of generateDemoRecords({ listings: 1500, seed: 9, historyDays: 0 })) {
      profiles.push(profileOfListing({
        title: r.title, description: r.description ?? null, brand: r.brand ?? null, gtin: r.gtin ?? null, mpn: r.mpn ?? null,
        category: r.category ?? null, specs: r.specs ?? null, priceUsd: r.price,
      }));
    }
    const blocks = new MemoryBlocks();
    let compared = 0;
    let skipped = 0;
    for (const [id, profile] of profiles.entries()) {
      const keys = blockingKeys(profile);
      const candidates = blocks.candidates(keys);
      for (const c of candidates) {
        compared++;
        const may = mayBeExact(profile, compactProfile(c.profile));
        if (!may) skipped++;
        if (!may) expect(compareProfiles(profile, c.profile).matchClass).not.toBe('exact');
      }
      const groupId = chooseGroup(profile, candidates)?.groupId ?? null;
      expect(groupId).toBe(chooseGroupReference(profile, candidates));
      blocks.add({ id, groupId: groupId ?? id, profile }, keys);
    }
    expect(compared).toBeGreaterThan(5000);
    expect(skipped / compared).toBeGreaterThan(0.8);
  });
});
