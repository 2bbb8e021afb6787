import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { isoTime, normalizeRecord } from '../../src/catalog/normalize.js';
import { rec } from '../helpers/records.js';

/** The definition isoTime's fast path must agree with. */
function byParser(text: string): string | null {
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

const two = (n: number) => String(n).padStart(2, '0');

describe('normalize', () => {
  it('isoTime gives what the date parser and toISOString give', () => {
    // Times of toISOString's own form, with every field pushed past its range (day 31 of a
    // 30-day month, 29 February of a common year, hour 24, minute 60 ...).
    const shaped = fc.tuple(
      fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999 }),
    ).map(([y, mo, d, h, mi, s, ms]) => `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}.${String(ms).padStart(3, '0')}Z`);
    const valid = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString());
    const other = fc.oneof(fc.string(), fc.constantFrom('2024-01-01', '2024-01-01T10:00:00Z', '2024-01-01T10:00:00+07:00', '2024-01-01 10:00', '+002024-01-01T00:00:00.000Z'));
    fc.assert(fc.property(fc.oneof(shaped, valid, other), (text) => isoTime(text) === byParser(text)), { numRuns: 20000 });
    for (const text of ['2024-02-29T23:59:59.999Z', '2023-02-29T00:00:00.000Z', '2100-02-29T00:00:00.000Z', '2000-02-29T00:00:00.000Z', '2024-04-31T00:00:00.000Z']) {
      expect(isoTime(text), text).toBe(byParser(text));
    }
  });

  it('trims text members of any whitespace and takes numbers as text', () => {
    const n = normalizeRecord(rec({ title: '\u00a0 Galaxy\u3000', brand: '\ufeffSamsung ', sku: 12345, mpn: ' ', category: '\tPhones\n' }), 1, shippedRates(), new Date());
    if (!n.ok) throw new Error(n.rejection.reason);
    expect(n.record).toMatchObject({ title: 'Galaxy', brand: 'Samsung', sku: '12345', mpn: null, category: 'Phones' });
  });
});
