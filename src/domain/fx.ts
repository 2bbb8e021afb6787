import Big from 'big.js';
import { CURRENCIES, decimalsOf, isCurrency, type Currency } from './currencies.js';
import './money.js'; // sets Big.DP and Big.RM, which convert follows

/** Units of each currency per 1 EUR, on one date, from one source. */
export interface RateTable {
  date: string;
  source: string;
  perEur: Record<Currency, Big>;
}

export class FxError extends Error {}

/**
 * Parses the rate CSV (`currency,per_eur` rows; `# date: YYYY-MM-DD` and `# source: ...` comment
 * lines). Every one of the 13 currencies must be present, so a partial file never half-replaces a table.
 */
export function parseRateCsv(text: string): RateTable {
  let date = '';
  let source = '';
  const perEur: Partial<Record<Currency, Big>> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    if (line.startsWith('#')) {
      const m = /^#\s*(date|source)\s*:\s*(.+)$/i.exec(line);
      if (m?.[1].toLowerCase() === 'date') date = m[2].trim();
      else if (m) source = m[2].trim();
      return;
    }
    const [code, rate] = line.split(',').map((s) => s.trim());
    if (code.toLowerCase() === 'currency') return;
    const upper = code.toUpperCase();
    if (!isCurrency(upper)) throw new FxError(`line ${i + 1}: unknown currency ${code}`);
    if (!/^\d+(\.\d+)?$/.test(rate ?? '') || Number(rate) === 0) throw new FxError(`line ${i + 1}: rate must be a positive decimal`);
    perEur[upper] = new Big(rate);
  });
  const missing = CURRENCIES.filter((c) => !perEur[c]);
  if (missing.length) throw new FxError(`missing currencies: ${missing.join(', ')}`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new FxError('missing or malformed "# date: YYYY-MM-DD" line');
  return { date, source: source || 'unknown', perEur: perEur as Record<Currency, Big> };
}

export function rateTableToCsv(table: RateTable): string {
  const rows = CURRENCIES.map((c) => `${c},${table.perEur[c].toString()}`);
  return [`# date: ${table.date}`, `# source: ${table.source}`, 'currency,per_eur', ...rows, ''].join('\n');
}

/** A non-negative decimal as an integer and its number of decimal places: 12.50 -> [1250n, 2]. */
type Scaled = readonly [digits: bigint, places: number];

function scaled(b: Big): Scaled {
  const text = b.abs().toFixed();
  const dot = text.indexOf('.');
  return dot < 0 ? [BigInt(text), 0] : [BigInt(text.slice(0, dot) + text.slice(dot + 1)), text.length - dot - 1];
}

const TEN = 10n;
/** n / d rounded to an integer, half away from zero (big.js roundHalfUp), for n >= 0 and d > 0. */
function divHalfUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  return (n - q * d) * 2n >= d ? q + 1n : q;
}

const ratesScaled = new WeakMap<Record<Currency, Big>, Map<Currency, Scaled>>();
function rateOf(table: RateTable, c: Currency): Scaled {
  let m = ratesScaled.get(table.perEur);
  if (!m) ratesScaled.set(table.perEur, (m = new Map()));
  let r = m.get(c);
  if (!r) m.set(c, (r = scaled(table.perEur[c])));
  return r;
}

/**
 * Converts exactly through EUR and rounds once, to the target currency's decimals: the amount is
 * divided by the source rate (to Big.DP places, half up, as big.js divides), multiplied by the
 * target rate, and rounded half up. Worked in integers: the same result as those big.js steps
 * (a property test holds it to them), several times faster on the ingest path.
 */
export function convert(amount: Big, from: Currency, to: Currency, table: RateTable): Big {
  if (from === to) return amount;
  const [a, aPlaces] = scaled(amount);
  const [f, fPlaces] = rateOf(table, from);
  const [t, tPlaces] = rateOf(table, to);
  // amount / from, to DP places: a * 10^(fPlaces + DP) / (f * 10^aPlaces).
  const quotient = divHalfUp(a * TEN ** BigInt(fPlaces + Big.DP), f * TEN ** BigInt(aPlaces));
  const places = decimalsOf(to);
  const drop = Big.DP + tPlaces - places;
  const result = drop >= 0 ? divHalfUp(quotient * t, TEN ** BigInt(drop)) : quotient * t * TEN ** BigInt(-drop);
  const text = result.toString().padStart(places + 1, '0');
  const sign = amount.s < 0 && result !== 0n ? '-' : '';
  return new Big(places ? `${sign}${text.slice(0, -places)}.${text.slice(-places)}` : `${sign}${text}`);
}
