import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProfile, compareProfiles, normalizeGtin } from '../../src/domain/matching/index.js';

const words = ['apple', 'iphone', '15', '128gb', '256 GB', 'case', 'for', 'samsung', 'galaxy', 'a55', 'sm-a556b', 'black',
  'bundle', '+', 'điện', 'thoại', 'โทรศัพท์', 'pro', 'upgrade', '2007', 'v2.0', 'kdc-c669', 'x', '"'];
const title = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 8 }).map((w) => w.join(' '));
const input = fc.record({
  title: fc.oneof(title, fc.string()),
  brand: fc.option(fc.constantFrom('Apple', 'Samsung', 'Spigen', 'Aspyr Media Inc.')),
  gtin: fc.option(fc.constantFrom('012345678905', '4006381333931', '123')),
  mpn: fc.option(fc.constantFrom('SM-A556B', 'MTP03', '')),
  category: fc.constant(null),
  specs: fc.constant(null),
  priceUsd: fc.option(fc.constantFrom('1.00', '399.99', '1200')),
  description: fc.option(fc.oneof(title, fc.constantFrom('model SM-A556B 5G', 'kdc-c669 changer'))),
});

describe('compareProfiles properties', () => {
  it('is symmetric in score and class, with score in [0, 1]', () => {
    fc.assert(
      fc.property(input, input, (x, y) => {
        const a = buildProfile(x);
        const b = buildProfile(y);
        const ab = compareProfiles(a, b);
        const ba = compareProfiles(b, a);
        expect(ab.score).toBe(ba.score);
        expect(ab.matchClass).toBe(ba.matchClass);
        expect(ab.score).toBeGreaterThanOrEqual(0);
        expect(ab.score).toBeLessThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });
  it('names the same shared code both ways when two codes are as long (a counterexample fast-check found)', () => {
    const profile = (title: string) => buildProfile({ title, brand: null, gtin: null, mpn: null, category: null, specs: null, priceUsd: null, description: null });
    const product = profile('kdc-c669 sm-a556b');
    const accessory = profile('sm-a556b for case kdc-c669');
    const ab = compareProfiles(product, accessory);
    const ba = compareProfiles(accessory, product);
    expect(ab).toEqual(ba);
    expect(ab.evidence.model_number).toBe('kdcc669');
  });
  it('a valid GTIN normalises to 14 digits whatever its padding', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11}$/), (body) => {
        let sum = 0;
        for (let i = 0; i < 11; i += 1) sum += Number(body[i]) * (i % 2 === 0 ? 3 : 1);
        const upc = body + String((10 - (sum % 10)) % 10);
        const g = normalizeGtin(upc);
        if (/^0+$/.test(upc)) return;
        expect(g).toBe(upc.padStart(14, '0'));
        expect(normalizeGtin('0' + upc)).toBe(g);
      }),
    );
  });
});
