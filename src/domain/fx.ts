import Big from 'big.js';
import { CURRENCIES, isCurrency, type Currency } from './currencies.js';
import { roundFor } from './money.js';

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

/** Converts exactly through EUR and rounds once, to the target currency's decimals. */
export function convert(amount: Big, from: Currency, to: Currency, table: RateTable): Big {
  if (from === to) return amount;
  return roundFor(amount.div(table.perEur[from]).times(table.perEur[to]), to);
}
