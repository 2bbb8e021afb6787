import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { profileOfListing } from '../../src/domain/listing-profile.js';
import { buildProfile, decodeProfile, encodeProfile } from '../../src/domain/matching/index.js';

const words = ['apple', 'iphone', '15', '128gb', 'case', 'for', 'samsung', 'galaxy', 'a55', 'sm-a556b', 'black', 'bundle', '+',
  'điện', 'thoại', 'โทรศัพท์', 'pro', 'upgrade', 'win', '98', 'xp', '2007', 'v2.0', 'kdc-c669', '2-pack', '"', '50"'];
const input = fc.record({
  title: fc.oneof(fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((w) => w.join(' ')), fc.string()),
  brand: fc.option(fc.constantFrom('Apple', 'Samsung', 'Aspyr Media Inc.', '')),
  gtin: fc.option(fc.constantFrom('012345678905', '123')),
  mpn: fc.option(fc.constantFrom('SM-A556B', '')),
  category: fc.option(fc.constantFrom('Phones', 'Điện thoại')),
  specs: fc.option(fc.constant({ model: 'KDC-C669' })),
  priceUsd: fc.option(fc.constantFrom('0.99', '399.99')),
  description: fc.option(fc.constantFrom('model SM-A556B 5G', 'kdc-c669 changer')),
});

describe('profile codec', () => {
  it('decodes to the profile that was encoded, and reads the plain JSON form too', () => {
    fc.assert(fc.property(input, (x) => {
      const p = buildProfile(x);
      expect(decodeProfile(encodeProfile(p))).toStrictEqual(p);
      expect(decodeProfile(JSON.stringify(p))).toStrictEqual(p);
    }), { numRuns: 1000 });
  });

  it('round-trips demo listings at a fraction of the JSON size', () => {
    let packed = 0;
    let plain = 0;
    for (const r of generateDemoRecords({ listings: 2000, seed: 4, historyDays: 0 })) {
      const p = profileOfListing({
        title: r.title, description: r.description ?? null, brand: r.brand ?? null, gtin: r.gtin ?? null, mpn: r.mpn ?? null,
        category: r.category ?? null, specs: r.specs ?? null, priceUsd: r.price,
      });
      const text = encodeProfile(p);
      expect(decodeProfile(text)).toStrictEqual(p);
      packed += text.length;
      plain += JSON.stringify(p).length;
    }
    expect(packed / plain).toBeLessThan(0.5);
  });
});
