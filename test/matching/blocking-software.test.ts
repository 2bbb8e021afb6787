import { describe, expect, it } from 'vitest';
import {
  blockingKeys, buildProfile, compareProfiles, GROUP_THRESHOLD, MAX_CANDIDATES, MAX_KEYS, priceToCents, type MatchInput,
} from '../../src/domain/matching/index.js';

const listing = (title: string, extra: Partial<MatchInput> = {}): MatchInput => ({
  title, brand: null, gtin: null, mpn: null, category: null, specs: null, priceUsd: null, ...extra,
});
const compare = (a: string, b: string, ea: Partial<MatchInput> = {}, eb: Partial<MatchInput> = {}) =>
  compareProfiles(buildProfile(listing(a, ea)), buildProfile(listing(b, eb)));

describe('blocking key order and cap', () => {
  it('exports the candidate cap the ingest writer uses', () => {
    expect(MAX_CANDIDATES).toBe(40);
  });
  it('orders keys GTIN, model code, title words and caps their number', () => {
    const keys = blockingKeys(buildProfile(listing('Samsung Galaxy S24 Ultra 256GB Titanium Black Unlocked Dual SIM Smartphone', {
      brand: 'Samsung', gtin: '8806095426280', mpn: 'SM-S928B',
    })));
    expect(keys.length).toBeLessThanOrEqual(MAX_KEYS);
    expect(keys[0]).toBe('g:08806095426280');
    expect(keys[1]).toBe('m:sms928');
    expect(keys.slice(2).every((k) => k.startsWith('t:') || k.startsWith('w:'))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it('a terse and a verbose title of one product share a key', () => {
    const terse = blockingKeys(buildProfile(listing('adobe captivate 2.0', { brand: 'Adobe' })));
    const verbose = blockingKeys(buildProfile(listing('adobe captivate 2 software for windows presentation software')));
    expect(terse.some((k) => verbose.includes(k))).toBe(true);
  });
  it('company-form words do not make title keys', () => {
    const keys = blockingKeys(buildProfile(listing('nova development corp art explosion 600000 images')));
    expect(keys.some((k) => k.includes('development'))).toBe(false);
  });
});

describe('software editions, versions, offers and platforms', () => {
  it('office 2007 is not office 2010', () => {
    const r = compare('microsoft office 2007 standard', 'microsoft office 2010 standard', { brand: 'Microsoft' });
    expect(r.evidence.reasons).toContain('version_differs');
    expect(r.score).toBeLessThan(GROUP_THRESHOLD);
  });
  it('standard is not professional', () => {
    const r = compare('microsoft visio standard 2007', 'microsoft visio professional 2007', { brand: 'Microsoft' });
    expect(r.evidence.reasons).toContain('edition_differs');
    expect(r.score).toBeLessThan(GROUP_THRESHOLD);
  });
  it('an upgrade is not the full product', () => {
    const r = compare('adobe photoshop cs3 upgrade', 'adobe photoshop cs3', { brand: 'Adobe' });
    expect(r.evidence.reasons).toContain('offer_kind_differs');
    expect(r.score).toBeLessThan(GROUP_THRESHOLD);
  });
  it('mac and windows versions are told apart', () => {
    const r = compare('quicken 2007 deluxe ( mac )', 'quicken 2007 deluxe for windows');
    expect(r.evidence.reasons).toContain('platform_differs');
  });
  it('a refined version number agrees with its prefix (10.4 ~ 10.4.6)', () => {
    const r = compare('apple mac os x tiger 10.4.6 family pack', 'apple mac os x v10.4 tiger family pack', { brand: 'Apple' });
    expect(r.evidence.reasons).not.toContain('version_differs');
    expect(r.matchClass).toBe('exact');
  });
});

describe('model codes', () => {
  it('meet when one is the other plus a short word suffix', () => {
    const r = compare('canon eos 40d digital slr camera in black eos40dbody', 'canon eos-40d 10.1 megapixel digital slr camera body eos40d');
    expect(r.evidence.model_number).toBe('eos40dbody');
    expect(r.matchClass).toBe('exact');
  });
  it('a consonant run glued to digits is a code, a word glued to a number is split', () => {
    expect(buildProfile(listing('panasonic battery vwvbg130')).codes).toContain('vwvbg130');
    expect(buildProfile(listing('apple iphone15 128gb')).tokens).toEqual(expect.arrayContaining(['iphone', '15']));
    const r = compare('panasonic lithium-ion battery pack vwvbg130', 'panasonic camcorder battery vw-vbg130');
    expect(r.evidence.reasons).toContain('model_number_equal');
  });
  it('a code spelled across two words of the other title still matches', () => {
    const r = compare('nikon coolpix s550 compact digital camera coolpixs550p', 'nikon coolpix s550 digital camera plum 26110');
    expect(r.evidence.reasons).toContain('model_number_equal');
    expect(r.evidence.reasons).not.toContain('model_number_differs');
  });
  it('a code named only in the description counts as a secondary signal', () => {
    const a = buildProfile(listing('sony bravia micro home theater system', {
      description: 'sony bravia theater black micro system DAV-IS50/B 5.1-channel surround sound, 54mbps s-air',
    }));
    const b = buildProfile(listing('sony dav-is50/b bravia home theater'));
    expect(a.descCodes).toContain('davis50b');
    expect(a.descCodes).not.toContain('54mbps');
    const ab = compareProfiles(a, b);
    expect(ab.evidence.reasons).toContain('model_number_in_description');
    expect(ab.score).toBe(compareProfiles(b, a).score);
    expect(ab.matchClass).toBe('exact');
  });
});

describe('prices', () => {
  it('are read as integer cents from the decimal string', () => {
    expect(priceToCents('399.99')).toBe(39999);
    expect(priceToCents('12')).toBe(1200);
    expect(priceToCents('0.105')).toBe(11);
    expect(priceToCents('abc')).toBeNull();
    expect(priceToCents('0')).toBeNull();
    expect(priceToCents(null)).toBeNull();
  });
  it('a ratio above 2.5x is suspicious, exactly 2.5x is ok', () => {
    expect(compare('widget x100', 'widget x100', { priceUsd: '10.00' }, { priceUsd: '25.00' }).evidence.price_sanity).toBe('ok');
    expect(compare('widget x100', 'widget x100', { priceUsd: '10.00' }, { priceUsd: '25.01' }).evidence.price_sanity).toBe('suspicious');
  });
});
