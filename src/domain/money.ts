import Big from 'big.js';
import { decimalsOf, type Currency } from './currencies.js';
import type { PriceTrend } from './listing.js';

// Prices are exact decimals end to end: big.js never rounds unless asked, and we ask once, at the edge.
Big.DP = 20;
Big.RM = Big.roundHalfUp;

export type Decimal = Big;
const DECIMAL_RE = /^-?\d{1,15}(\.\d{1,12})?$/;

/** The text of a decimal given as a string or a JSON number, when it is one an ingest accepts. */
function decimalText(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // A JSON number is read through its shortest decimal representation, never through float math.
    value = String(value);
    if (/e/i.test(value as string)) return null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return DECIMAL_RE.test(text) ? text : null;
}

/** Parses a price given as a decimal string or a JSON number; null when it is not a finite decimal. */
export function parseDecimal(value: unknown): Big | null {
  const text = decimalText(value);
  return text === null ? null : new Big(text);
}

/**
 * An exact decimal as an integer and its number of places: -12.50 is [-1250n, 2]. The ingest path
 * works in these (BigInt arithmetic, cheaper than big.js objects); property tests hold every
 * operation here to the big.js one it stands for.
 */
export type Scaled = readonly [units: bigint, places: number];

/** A plain decimal text (what toFixed or formatMoney writes, any length) as a Scaled. */
export function scaledText(text: string): Scaled {
  const dot = text.indexOf('.');
  return dot < 0 ? [BigInt(text), 0] : [BigInt(text.slice(0, dot) + text.slice(dot + 1)), text.length - dot - 1];
}

/** parseDecimal, as a Scaled. */
export function parseScaled(value: unknown): Scaled | null {
  const text = decimalText(value);
  return text === null ? null : scaledText(text);
}

export const scaledOf = (b: Big): Scaled => scaledText(b.toFixed());

/** n / d rounded to an integer, half away from zero (big.js roundHalfUp), for d > 0. */
export function divHalfUp(n: bigint, d: bigint): bigint {
  if (n < 0n) return -divHalfUp(-n, d);
  const q = n / d;
  return (n - q * d) * 2n >= d ? q + 1n : q;
}

// Every power the ingest path asks for (rates' places plus Big.DP plus an amount's) is in the table.
const POW10 = Array.from({ length: 64 }, (_, i) => 10n ** BigInt(i));
export const pow10 = (n: number): bigint => (n < POW10.length ? POW10[n] : 10n ** BigInt(n));

/** The amount rounded half away from zero to `places` decimals, in units of 10^-places. */
export function roundScaled([units, from]: Scaled, places: number): bigint {
  return from <= places ? units * pow10(places - from) : divHalfUp(units, pow10(from - places));
}

/** Units of 10^-places as fixed text, as big.js toFixed writes it: (-1250n, 2) is "-12.50". */
export function unitsText(units: bigint, places: number): string {
  const digits = (units < 0n ? -units : units).toString().padStart(places + 1, '0');
  const body = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return units < 0n ? `-${body}` : body;
}

/** formatMoney of a Scaled. */
export const formatScaled = (amount: Scaled, currency: Currency): string =>
  unitsText(roundScaled(amount, decimalsOf(currency)), decimalsOf(currency));

/** toMinor of a Scaled. */
export const minorScaled = (amount: Scaled, currency: Currency): number => Number(roundScaled(amount, decimalsOf(currency)));

/** `amount.round(places).toString()` of big.js: rounded half up, without trailing zeros. */
export function roundedText(amount: Scaled, places: number): string {
  const text = unitsText(roundScaled(amount, places), places);
  return places ? text.replace(/\.?0+$/, '') : text;
}

/** Compares two Scaled amounts: -1, 0 or 1. */
export function compareScaled([a, ap]: Scaled, [b, bp]: Scaled): number {
  const x = ap < bp ? a * pow10(bp - ap) : a;
  const y = bp < ap ? b * pow10(ap - bp) : b;
  return x < y ? -1 : x > y ? 1 : 0;
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

/** The direction of a price change, compared exactly. */
export function trendOf(before: string, after: string): PriceTrend {
  const cmp = new Big(after).cmp(new Big(before));
  return cmp > 0 ? 'up' : cmp < 0 ? 'down' : 'stable';
}

/** Discount of `price` against `original`, as a percentage with 2 decimals (0 when not discounted). */
export function discountPct(price: Big, original: Big | null): number {
  if (!original || original.lte(price) || original.eq(0)) return 0;
  return Number(original.minus(price).div(original).times(100).round(2, Big.roundHalfUp).toFixed(2));
}

/** discountPct of Scaled amounts: the quotient to Big.DP places, times 100, rounded to 2, as big.js steps it. */
export function discountPctScaled(price: Scaled, original: Scaled | null): number {
  if (!original || original[0] === 0n || compareScaled(original, price) <= 0) return 0;
  const places = Math.max(price[1], original[1]);
  const o = roundScaled(original, places);
  const sign = o < 0n ? -1n : 1n;
  const quotient = divHalfUp((o - roundScaled(price, places)) * sign * pow10(Big.DP), o * sign);
  return Number(unitsText(divHalfUp(quotient * 100n, pow10(Big.DP - 2)), 2));
}
