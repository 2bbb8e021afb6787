import { describe, expect, it } from 'vitest';
import {
  blockingKeys, buildProfile, chooseGroup, compareProfiles, GROUP_THRESHOLD, type MatchInput,
} from '../../src/domain/matching/index.js';

const listing = (title: string, extra: Partial<MatchInput> = {}): MatchInput => ({
  title, brand: null, gtin: null, mpn: null, category: null, specs: null, priceUsd: null, ...extra,
});
const compare = (a: string, b: string, ea: Partial<MatchInput> = {}, eb: Partial<MatchInput> = {}) =>
  compareProfiles(buildProfile(listing(a, ea)), buildProfile(listing(b, eb)));

describe('match classes', () => {
  it('a case for an iPhone is an accessory of the iPhone, not the iPhone', () => {
    const r = compare('Spigen case for iPhone 15', 'Apple iPhone 15 128GB', { brand: 'Spigen' }, { brand: 'Apple' });
    expect(r.matchClass).toBe('accessory');
    expect(r.score).toBeLessThan(GROUP_THRESHOLD);
    expect(r.evidence.reasons).toContain('accessory_of_other');
  });
  it('a bundle is not the single item', () => {
    const r = compare('Apple iPhone 15 128GB + AirPods bundle', 'Apple iPhone 15 128GB', { brand: 'Apple' }, { brand: 'Apple' });
    expect(r.matchClass).toBe('bundle');
    expect(r.score).toBeLessThan(GROUP_THRESHOLD);
  });
  it('128GB and 256GB are variants of one model', () => {
    const r = compare('Apple iPhone 15 128GB Black', 'Apple iPhone 15 256 GB Black', { brand: 'Apple' }, { brand: 'Apple' });
    expect(r.matchClass).toBe('variant');
    expect(r.evidence.reasons).toContain('capacity_differs');
    expect(r.score).toBeLessThan(GROUP_THRESHOLD);
  });
  it('colour alone does not separate: two colours of one model are exact (and say so)', () => {
    const r = compare('Apple iPhone 15 128GB Black', 'Apple iPhone 15 128 GB Pink', { brand: 'Apple' }, { brand: 'Apple' });
    expect(r.matchClass).toBe('exact');
    expect(r.score).toBeGreaterThanOrEqual(GROUP_THRESHOLD);
    expect(r.evidence.reasons).toContain('colour_differs');
  });
  it('an equal GTIN in different spellings decides exact', () => {
    const r = compare('Widget A', 'Some other wording', { gtin: '012345678905' }, { gtin: '00012345678905' });
    expect(r.evidence.gtin).toBe('equal');
    expect(r.matchClass).toBe('exact');
  });
  it('different model numbers are different products', () => {
    const r = compare('Samsung 50" plasma HDTV PN50A650', 'Samsung 50 inch plasma HDTV PN50A550');
    expect(r.evidence.reasons).toContain('model_number_differs');
    expect(r.score).toBeLessThan(GROUP_THRESHOLD);
  });
  it('model codes meet across hyphenation', () => {
    const r = compare('kenwood 6-disc cd changer kdcc669', 'kenwood kdc-c669 car cd changer');
    expect(r.evidence.model_number).toBe('kdcc669');
    expect(r.matchClass).toBe('exact');
  });
});

describe('Vietnamese and Thai titles', () => {
  const vi = buildProfile(listing('Điện thoại Samsung Galaxy A55 5G 8GB/128GB', { priceUsd: '390' }));
  const en = buildProfile(listing('Samsung Galaxy A55 5G (8GB+128GB) - Awesome Navy', { brand: 'Samsung', priceUsd: '399.99' }));
  const th = buildProfile(listing('โทรศัพท์ Samsung Galaxy A55 5G 128GB', { priceUsd: '405' }));
  it('strips Vietnamese diacritics and keeps Thai words as tokens', () => {
    expect(vi.tokens).toEqual(expect.arrayContaining(['dien', 'thoai', 'samsung', 'a55', '128gb']));
    expect(th.tokens).toContain('โทรศัพท์');
  });
  it('"8GB+128GB" is storage, not a bundle', () => {
    expect(en.bundle).toBe(false);
    expect(en.capacityGb).toBe(128);
  });
  it('match the English listing as exact and share a blocking key', () => {
    for (const other of [vi, th]) {
      const r = compareProfiles(other, en);
      expect(r.matchClass).toBe('exact');
      expect(r.score).toBeGreaterThanOrEqual(GROUP_THRESHOLD);
      expect(blockingKeys(other).some((k) => blockingKeys(en).includes(k))).toBe(true);
    }
  });
  it('a Galaxy A35 is not a Galaxy A55', () => {
    const a35 = buildProfile(listing('Điện thoại Samsung Galaxy A35 5G 8GB/128GB'));
    expect(compareProfiles(a35, en).score).toBeLessThan(GROUP_THRESHOLD);
  });
});

describe('blocking and grouping', () => {
  it('keys are short, typed strings and never the brand alone', () => {
    const keys = blockingKeys(buildProfile(listing('Samsung Galaxy S24 Ultra 256GB', { brand: 'Samsung', gtin: '8806095426280', mpn: 'SM-S928B' })));
    expect(keys).toContain('g:08806095426280');
    expect(keys).toContain('m:sms928');
    expect(keys).not.toContain('t:samsung');
    for (const k of keys) expect(k.length).toBeLessThan(64);
  });
  it('profiles survive a JSON round trip unchanged', () => {
    const p = buildProfile(listing('Apple iPhone 15 128GB', { brand: 'Apple', specs: { 'Model Number': 'MTP03' }, priceUsd: '799.00' }));
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });
  it('chooseGroup picks the exact match group, and null for an accessory', () => {
    const phone = buildProfile(listing('Apple iPhone 15 128GB Black', { brand: 'Apple' }));
    const candidates = [
      { id: 1, groupId: 10, profile: buildProfile(listing('Spigen case for iPhone 15', { brand: 'Spigen' })) },
      { id: 2, groupId: 20, profile: buildProfile(listing('iPhone 15 128 GB Blue by Apple')) },
    ];
    expect(chooseGroup(phone, candidates)?.groupId).toBe(20);
    expect(chooseGroup(phone, candidates.slice(0, 1))).toBeNull();
  });
});
