import { describe, expect, it } from 'vitest';
import {
  buildProfile, chooseGroup, compareProfiles, GROUP_THRESHOLD, type MatchInput,
} from '../../src/domain/matching/index.js';

/**
 * Issue 18 item 15: grouping put a phone with its cases and a Galaxy S7 with a Galaxy S7 edge.
 * Variant words (edge, plus, pro, max, mini, lite, ultra) and accessory words (case, cover,
 * charger, "for ...") separate groups.
 */
const listing = (title: string, extra: Partial<MatchInput> = {}): MatchInput => ({
  title, brand: null, gtin: null, mpn: null, category: null, specs: null, priceUsd: null, ...extra,
});
const compare = (a: string, b: string, ea: Partial<MatchInput> = {}, eb: Partial<MatchInput> = {}) =>
  compareProfiles(buildProfile(listing(a, ea)), buildProfile(listing(b, eb)));

const SEPARATE: Array<[string, string]> = [
  ['Samsung Galaxy S7 32GB', 'Samsung Galaxy S7 edge 32GB'],
  ['Samsung Galaxy S7 32GB Black', 'SAMSUNG GALAXY S7 EDGE 32GB BLACK'],
  ['iPhone 15 Pro', 'iPhone 15 Pro Max'],
  ['Apple iPhone 15 Pro 256GB Natural Titanium', 'Apple iPhone 15 Pro Max 256GB Natural Titanium'],
  ['Apple iPhone 15 128GB', 'Apple iPhone 15 Plus 128GB'],
  ['Apple iPhone 15 128GB', 'Apple iPhone 15 Pro 128GB'],
  ['Apple iPad 6 Wi-Fi 64GB', 'Apple iPad mini 6 Wi-Fi 64GB'],
  ['Xiaomi 13 256GB', 'Xiaomi 13 Lite 256GB'],
  ['Samsung Galaxy S24 256GB', 'Samsung Galaxy S24 Ultra 256GB'],
  ['Redmi Note 13 Pro 5G', 'Redmi Note 13 Pro+ 5G Plus'],
  ['Apple iPhone 15 128GB', 'Case for iPhone 15'],
  ['Samsung Galaxy S24 256GB', 'OtterBox Defender Case for Samsung Galaxy S24'],
  ['Samsung Galaxy S24 256GB', 'Samsung Galaxy S24 Silicone Cover'],
  ['Samsung Galaxy S24 256GB', 'Samsung 25W Charger for Galaxy S24'],
  // The case names the phone's model number: that identifies the phone, not the case.
  ['Samsung Galaxy S24 SM-S921B 256GB', 'OtterBox Defender Case for Samsung Galaxy S24 SM-S921B'],
  ['Betis Atlas Smartphone BE-BTA9Z, 128GB, Silver', 'OTTERBOX Defender Case for Betis Atlas Smartphone BE-BTA9Z, Pink Sand'],
];

const SAME: Array<[string, string]> = [
  ['Samsung Galaxy S7 edge 32GB', 'SAMSUNG Galaxy S7 Edge (32GB) Gold'],
  ['Apple iPhone 15 Pro Max 256GB', 'iPhone 15 Pro Max 256 GB by Apple'],
  ['Microsoft Office 2004 Professional (Mac)', 'Microsoft Office Pro 2004 for Mac'],
  ['OtterBox Defender Case for Samsung Galaxy S24', 'OtterBox Defender Series Case for Galaxy S24 Black'],
];

describe('variant and accessory words separate groups', () => {
  it.each(SEPARATE)('"%s" is not "%s"', (a, b) => {
    for (const [x, y] of [[a, b], [b, a]]) {
      const r = compare(x, y);
      expect(r.score, `${x} | ${y}: ${r.evidence.reasons.join(',')}`).toBeLessThan(GROUP_THRESHOLD);
      expect(r.matchClass).not.toBe('exact');
    }
  });

  it.each(SAME)('"%s" is still "%s"', (a, b) => {
    const r = compare(a, b);
    expect(r.matchClass, r.evidence.reasons.join(',')).toBe('exact');
    expect(r.score).toBeGreaterThanOrEqual(GROUP_THRESHOLD);
  });

  it('says why: variant_word_differs, accessory_of_other', () => {
    expect(compare('Samsung Galaxy S7 32GB', 'Samsung Galaxy S7 edge 32GB')).toMatchObject({ matchClass: 'variant' });
    expect(compare('Samsung Galaxy S7 32GB', 'Samsung Galaxy S7 edge 32GB').evidence.reasons).toContain('variant_word_differs');
    expect(compare('Samsung Galaxy S24 SM-S921B 256GB', 'OtterBox Defender Case for Samsung Galaxy S24 SM-S921B').evidence.reasons).toContain('accessory_of_other');
  });

  it('an equal GTIN still decides: the same product whatever its title says', () => {
    const r = compare('Samsung Galaxy S7 32GB', 'Samsung Galaxy S7 edge 32GB', { gtin: '8806088269818' }, { gtin: '8806088269818' });
    expect(r.matchClass).toBe('exact');
  });

  it('chooseGroup keeps a phone, its edge model and their cases in four groups', () => {
    const titles = [
      'Samsung Galaxy S7 32GB Black', 'Samsung Galaxy S7 edge 32GB Black', 'Spigen case for Samsung Galaxy S7',
      'Spigen case for Samsung Galaxy S7 edge', 'SAMSUNG GALAXY S7 32GB BLACK', 'Samsung Galaxy S7 Edge 32 GB Gold',
    ];
    const placed: Array<{ id: number; groupId: number; profile: ReturnType<typeof buildProfile> }> = [];
    for (const [id, title] of titles.entries()) {
      const profile = buildProfile(listing(title));
      placed.push({ id, groupId: chooseGroup(profile, placed)?.groupId ?? id, profile });
    }
    expect(placed.map((p) => p.groupId)).toEqual([0, 1, 2, 3, 0, 1]);
  });
});
