import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Big from 'big.js';
import { CURRENCIES, decimalsOf, type Currency } from '../../src/domain/currencies.js';
import { convert, parseRateCsv, rateTableToCsv, type RateTable } from '../../src/domain/fx.js';
import {
  changePct, compareScaled, discountPct, discountPctScaled, formatMoney, formatScaled, fromMinor, minorScaled, parseDecimal,
  parseScaled, roundedText, roundFor, scaledOf, scaledText, toMinor,
} from '../../src/domain/money.js';
import { shippedRates } from '../../src/catalog/fx-service.js';

const rates = shippedRates();
const amount = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 99 }))
  .map(([i, f]) => new Big(`${i}.${String(f).padStart(2, '0')}`));
const currency = fc.constantFrom(...CURRENCIES);

/** convert as big.js steps it: divide to Big.DP places, multiply, round once. */
const convertByBig = (a: Big, from: Currency, to: Currency, table: RateTable) =>
  (from === to ? a : roundFor(a.div(table.perEur[from]).times(table.perEur[to]), to));
/** Any decimal an ingest accepts: up to 15 integer digits and 12 decimals, either sign. */
const anyDecimal = fc.tuple(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), fc.integer({ min: 0, max: 12 }))
  .map(([digits, places]) => new Big(digits.toString()).div(new Big(10).pow(places)));
const rateText = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.integer({ min: 0, max: 8 }))
  .map(([digits, places]) => new Big(digits.toString()).div(new Big(10).pow(places)));

describe('money', () => {
  it('converts exactly as big.js divides, multiplies and rounds, for every pair, amount and rate', () => {
    fc.assert(fc.property(anyDecimal, currency, currency, (a, from, to) => {
      expect(convert(a, from, to, rates).toFixed()).toBe(convertByBig(a, from, to, rates).toFixed());
    }), { numRuns: 3000 });
    fc.assert(fc.property(anyDecimal, rateText, rateText, currency, currency, (a, rf, rt, from, to) => {
      const table: RateTable = { ...rates, perEur: { ...rates.perEur, [from]: rf, [to]: rt } };
      expect(convert(a, from, to, table).toFixed()).toBe(convertByBig(a, from, to, table).toFixed());
    }), { numRuns: 3000 });
    // A half rounds away from zero: 0.01 EUR at 0.5 SGD per EUR is 0.005 SGD, so 0.01.
    const table: RateTable = { ...rates, perEur: { ...rates.perEur, EUR: new Big(1), SGD: new Big('0.5') } };
    expect(convert(new Big('0.01'), 'EUR', 'SGD', table).toFixed()).toBe('0.01');
    expect(convert(new Big('-0.01'), 'EUR', 'SGD', table).toFixed()).toBe('-0.01');
  });


  it('formats with the currency\'s own decimals (VND, IDR, JPY have none)', () => {
    expect(formatMoney(new Big('22490000.4'), 'VND')).toBe('22490000');
    expect(formatMoney(new Big('1999.5'), 'IDR')).toBe('2000');
    expect(formatMoney(new Big('12.345'), 'SGD')).toBe('12.35');
    expect(formatMoney(new Big('0.1').plus('0.2'), 'USD')).toBe('0.30');
  });

  it('parses decimal strings and JSON numbers exactly, and refuses everything else', () => {
    expect(parseDecimal('19.99')!.toString()).toBe('19.99');
    expect(parseDecimal(0.1)!.plus(parseDecimal(0.2)!).toString()).toBe('0.3');
    for (const bad of ['1e5', 'abc', '', '1.2.3', NaN, Infinity, null, {}, '12,50']) expect(parseDecimal(bad)).toBeNull();
  });

  it('minor units round-trip exactly for every currency', () => {
    fc.assert(fc.property(amount, currency, (a, c) => {
      const rounded = new Big(formatMoney(a, c));
      expect(fromMinor(toMinor(a, c), c).eq(rounded)).toBe(true);
    }));
  });

  it('formatted amounts always carry exactly the currency\'s decimals', () => {
    fc.assert(fc.property(amount, currency, (a, c) => {
      const text = formatMoney(a, c);
      const decimals = text.includes('.') ? text.split('.')[1].length : 0;
      expect(decimals).toBe(decimalsOf(c));
    }));
  });

  it('converting to the same currency is the identity, and conversion is monotonic', () => {
    fc.assert(fc.property(amount, amount, currency, currency, (a, b, from, to) => {
      expect(convert(a, from, from, rates).eq(a)).toBe(true);
      const [lo, hi] = a.lte(b) ? [a, b] : [b, a];
      expect(convert(lo, from, to, rates).lte(convert(hi, from, to, rates))).toBe(true);
    }));
  });

  it('a round trip through another currency stays within one unit of rounding', () => {
    fc.assert(fc.property(amount, (a) => {
      const there = convert(a, 'SGD', 'USD', rates);
      const back = convert(there, 'USD', 'SGD', rates);
      expect(back.minus(a).abs().lte(new Big('0.02'))).toBe(true);
    }));
  });

  it('the exact-integer forms give what their big.js operations give', () => {
    fc.assert(fc.property(anyDecimal, anyDecimal, currency, fc.integer({ min: 0, max: 4 }), (a, b, c, places) => {
      const s = scaledText(a.toFixed());
      expect(s).toEqual(scaledOf(a));
      expect(formatScaled(s, c)).toBe(formatMoney(a, c));
      expect(minorScaled(s, c)).toBe(toMinor(a, c));
      expect(roundedText(s, places)).toBe(a.round(places).toString());
      expect(compareScaled(s, scaledOf(b))).toBe(a.cmp(b));
      expect(discountPctScaled(s, scaledOf(b))).toBe(discountPct(a, b));
      expect(discountPctScaled(scaledOf(b), s)).toBe(discountPct(b, a));
    }), { numRuns: 5000 });
    // A quotient just under a half at 2 decimals that rounds up at big.js's 20: both round the same way.
    expect(discountPctScaled(scaledText('0.87655'), scaledText('1'))).toBe(discountPct(new Big('0.87655'), new Big('1')));
    expect(discountPctScaled(scaledText('2'), scaledText('3'))).toBe(33.33);
    expect(discountPctScaled(scaledText('5'), null)).toBe(0);
  });

  it('reads exactly what parseDecimal reads, and refuses the same', () => {
    const inputs = fc.oneof(
      fc.double({ noNaN: false }), fc.string(), fc.constantFrom('19.99', ' 7.5 ', '-0', '-0.00', '1e5', '0.1', '123456789012345', '1234567890123456'),
      anyDecimal.map((d) => d.toFixed()), anyDecimal.map((d) => Number(d.toFixed())),
    );
    fc.assert(fc.property(inputs, (v) => {
      const big = parseDecimal(v);
      const scaled = parseScaled(v);
      if (big === null) expect(scaled).toBeNull();
      else expect(scaled && compareScaled(scaled, scaledOf(big))).toBe(0);
    }), { numRuns: 5000 });
  });

  it('change percentages are signed, exact to 2 decimals', () => {
    expect(changePct(new Big('100'), new Big('90'))).toBe(-10);
    expect(changePct(new Big('3'), new Big('4'))).toBe(33.33);
  });
});

describe('rate table', () => {
  it('round-trips through its CSV form and names its date and source', () => {
    const again = parseRateCsv(rateTableToCsv(rates));
    expect(again.date).toBe('2025-06-30');
    expect(again.source).toMatch(/European Central Bank/);
    for (const c of CURRENCIES) expect(again.perEur[c].eq(rates.perEur[c])).toBe(true);
  });

  it('refuses a partial or malformed table with the line named', () => {
    expect(() => parseRateCsv('# date: 2025-01-01\ncurrency,per_eur\nUSD,1.1\n')).toThrow(/missing currencies/);
    expect(() => parseRateCsv('# date: 2025-01-01\nXXX,1\n')).toThrow(/line 2: unknown currency XXX/);
    expect(() => parseRateCsv(rateTableToCsv(rates).replace('USD,1.172', 'USD,-1'))).toThrow(/positive decimal/);
  });
});
