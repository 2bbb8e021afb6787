import { describe, expect, it } from 'vitest';
import { normalizeGtin } from '../../src/domain/matching/index.js';

describe('normalizeGtin', () => {
  it('brings UPC-A, EAN-13 with a leading 0 and GTIN-14 to one GTIN-14', () => {
    expect(normalizeGtin('012345678905')).toBe('00012345678905');
    expect(normalizeGtin('0012345678905')).toBe('00012345678905');
    expect(normalizeGtin('00012345678905')).toBe('00012345678905');
    expect(normalizeGtin('0 12345 67890 5')).toBe('00012345678905');
  });
  it('accepts EAN-8 and EAN-13', () => {
    expect(normalizeGtin('96385074')).toBe('00000096385074');
    expect(normalizeGtin('4006381333931')).toBe('04006381333931');
  });
  it('rejects a wrong check digit, wrong lengths, letters and all-zero placeholders', () => {
    expect(normalizeGtin('012345678901')).toBeNull();
    expect(normalizeGtin('4006381333932')).toBeNull();
    expect(normalizeGtin('12345')).toBeNull();
    expect(normalizeGtin('01234567890A')).toBeNull();
    expect(normalizeGtin('00000000000000')).toBeNull();
  });
});
