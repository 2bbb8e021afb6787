import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMinor, shelfPrice, usdCentsToMinor, DEMO_DECIMALS, type DemoCurrency } from '../../src/demo/money-minor.js';
import { gtinCheckDigit, isValidGtin, makeGtin13 } from '../../src/demo/gtin.js';

const CURRENCIES = Object.keys(DEMO_DECIMALS) as DemoCurrency[];

describe('demo money', () => {
  it('formats integer minor units exactly', () => {
    expect(formatMinor(129_900, 'SGD')).toBe('1299.00');
    expect(formatMinor(5, 'USD')).toBe('0.05');
    expect(formatMinor(1_299_000, 'VND')).toBe('1299000');
  });

  it('converts USD cents with fixed rates', () => {
    expect(usdCentsToMinor(100_000, 'USD')).toBe(100_000);
    expect(usdCentsToMinor(100_000, 'SGD')).toBe(134_000);
    expect(usdCentsToMinor(100_000, 'VND')).toBe(25_400_000);
  });

  it('rounds to shelf prices the way each market writes them', () => {
    expect(formatMinor(shelfPrice(129_420, 'USD', 0), 'USD')).toBe('1293.99');
    expect(formatMinor(shelfPrice(129_420, 'SGD', 0), 'SGD')).toBe('1293.90');
    expect(formatMinor(shelfPrice(4_123_456, 'THB', 0), 'THB')).toBe('41190.00');
    expect(formatMinor(shelfPrice(1_287_345, 'VND', 0), 'VND')).toBe('1289000');
    expect(formatMinor(shelfPrice(1_287_345, 'IDR', 1), 'IDR')).toBe('1287000');
  });

  it('always yields a positive amount in the currency decimals', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5_000_000 }), fc.constantFrom(...CURRENCIES), fc.integer({ min: 0, max: 2 }), (raw, cur, style) => {
      const minor = shelfPrice(raw * (DEMO_DECIMALS[cur] === 0 ? 100 : 1), cur, style);
      expect(Number.isInteger(minor) && minor > 0).toBe(true);
      const text = formatMinor(minor, cur);
      expect(text).toMatch(DEMO_DECIMALS[cur] === 0 ? /^[1-9]\d*$/ : /^\d+\.\d{2}$/);
    }));
  });
});

describe('demo gtin', () => {
  it('computes known check digits', () => {
    expect(gtinCheckDigit('400638133393')).toBe(1);
    expect(gtinCheckDigit('978030640615')).toBe(7);
    expect(isValidGtin('4006381333931')).toBe(true);
    expect(isValidGtin('4006381333932')).toBe(false);
  });

  it('makes distinct valid GTIN-13s for distinct products', () => {
    const seen = new Set<string>();
    for (let p = 0; p < 20_000; p++) {
      const g = makeGtin13('880', p);
      expect(isValidGtin(g)).toBe(true);
      seen.add(g.slice(3, 12));
    }
    expect(seen.size).toBe(20_000);
  });
});
