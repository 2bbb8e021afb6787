import Big from 'big.js';
import { decimalsOf, type Currency } from './currencies.js';

// Prices are exact decimals end to end: big.js never rounds unless asked, and we ask once, at the edge.
Big.DP = 20;
Big.RM = Big.roundHalfUp;

export type Decimal = Big;
const DECIMAL_RE = /^-?\d{1,15}(\.\d{1,12})?$/;

/** Parses a price given as a decimal string or a JSON number; null when it is not a finite decimal. */
export function parseDecimal(value: unknown): Big | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // A JSON number is read through its shortest decimal representation, never through float math.
    value = String(value);
    if (/e/i.test(value as string)) return null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!DECIMAL_RE.test(text)) return null;
  return new Big(text);
}

export function dec(value: string | number | Big): Big {
  return new Big(value);
}

/** Rounds to the currency's own number of decimals (VND and IDR have none). */
export function roundFor(amount: Big, currency: Currency): Big {
  return amount.round(decimalsOf(currency), Big.roundHalfUp);
}

/** The canonical wire text of an amount: fixed to the currency's decimals. */
export function formatMoney(amount: Big, currency: Currency): string {
  return roundFor(amount, currency).toFixed(decimalsOf(currency));
}

/** Integer minor units (cents of SGD, say) used for exact ordering and range filters in the store. */
export function toMinor(amount: Big, currency: Currency): number {
  return Number(roundFor(amount, currency).times(new Big(10).pow(decimalsOf(currency))).toFixed(0));
}

export function fromMinor(minor: number | bigint, currency: Currency): Big {
  return new Big(minor.toString()).div(new Big(10).pow(decimalsOf(currency)));
}

/** Percentage change from `before` to `after`, rounded to 2 decimals; a JSON number for the wire. */
export function changePct(before: Big, after: Big): number {
  if (before.eq(0)) return 0;
  return Number(after.minus(before).div(before).times(100).round(2, Big.roundHalfUp).toFixed(2));
}

/** Discount of `price` against `original`, as a percentage with 2 decimals (0 when not discounted). */
export function discountPct(price: Big, original: Big | null): number {
  if (!original || original.lte(price) || original.eq(0)) return 0;
  return Number(original.minus(price).div(original).times(100).round(2, Big.roundHalfUp).toFixed(2));
}
