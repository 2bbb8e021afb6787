import Big from 'big.js';
import { CURRENCIES, decimalsOf, isCurrency, type Currency } from './currencies.js';
import { divHalfUp, pow10, scaledOf, unitsText, type Scaled } from './money.js'; // money.js sets Big.DP, which convert follows

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

const ratesScaled = new WeakMap<Record<Currency, Big>, Map<Currency, Scaled>>();
function rateOf(table: RateTable, c: Currency): Scaled {
  let m = ratesScaled.get(table.perEur);
  if (!m) ratesScaled.set(table.perEur, (m = new Map()));
  let r = m.get(c);
  if (!r) m.set(c, (r = scaledOf(table.perEur[c])));
  return r;
}

/**
 * Converts exactly through EUR and rounds once, to the target currency's decimals: the amount is
 * divided by the source rate (to Big.DP places, half up, as big.js divides), multiplied by the
 * target rate, and rounded half up. Worked in integers, cheaper than big.js on the ingest path,
 * with the same result as those big.js steps (a property test holds it to them). The same
 * currency gives the amount back as it is.
 */
export function convertScaled(amount: Scaled, from: Currency, to: Currency, table: RateTable): Scaled {
  if (from === to) return amount;
  const [a, aPlaces] = amount;
  const [f, fPlaces] = rateOf(table, from);
  const [t, tPlaces] = rateOf(table, to);
  // amount / from, to DP places: a * 10^(fPlaces + DP) / (f * 10^aPlaces).
  const quotient = divHalfUp(a * pow10(fPlaces + Big.DP), f * pow10(aPlaces));
  const places = decimalsOf(to);
  const drop = Big.DP + tPlaces - places;
  return [drop >= 0 ? divHalfUp(quotient * t, pow10(drop)) : quotient * t * pow10(-drop), places];
}

/** convertScaled of a big.js amount. */
export function convert(amount: Big, from: Currency, to: Currency, table: RateTable): Big {
  if (from === to) return amount;
  const [units, places] = convertScaled(scaledOf(amount), from, to, table);
  return new Big(unitsText(units, places));
}
