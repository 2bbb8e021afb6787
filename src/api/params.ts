import type { FxService } from '../catalog/fx-service.js';
import type { Currency } from '../domain/currencies.js';
import { SEA_COUNTRIES } from '../domain/currencies.js';
import { DomainError } from '../domain/errors.js';
import { invalidInput } from '../http/request-error.js';
import type { ListingFilter, PageCursor } from '../store/types.js';

/** Query parameters every surface reads the same way; the error forms are the caller's. */

/** "sg,us" / "sea" -> ISO country codes; unknown codes are refused with the field named. */
export function countriesOf(value: string | undefined, field: string): string[] | undefined {
  if (!value) return undefined;
  const out = new Set<string>();
  for (const part of value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean)) {
    if (part === 'SEA') SEA_COUNTRIES.forEach((c) => out.add(c));
    else if (/^[A-Z]{2}$/.test(part)) out.add(part);
    else throw invalidInput(['query', field], `${field} must be comma-separated two-letter codes or sea, got "${part}"`);
  }
  return [...out];
}

/**
 * A minimum above the maximum is refused: as 400 INVALID_PRICE_RANGE with both values (the listing
 * of spec 4.2), or as a validation failure naming the first bound (search).
 */
export function checkRange(min: number | undefined, max: number | undefined, names: [string, string], form: 'INVALID_PRICE_RANGE' | 'VALIDATION_ERROR' = 'VALIDATION_ERROR'): void {
  if (min === undefined || max === undefined || min <= max) return;
  const message = `${names[0]} (${min}) must not be greater than ${names[1]} (${max})`;
  if (form === 'INVALID_PRICE_RANGE') throw new DomainError('INVALID_PRICE_RANGE', message, { [names[0]]: min, [names[1]]: max });
  throw invalidInput(['query', names[0]], message);
}

/** Price bounds in `currency` -> the SGD-cent filter, refusing min > max in the given form. */
export function priceBounds(fx: FxService, min: number | undefined, max: number | undefined, currency: Currency, names: [string, string], form?: 'INVALID_PRICE_RANGE') {
  checkRange(min, max, names, form);
  return {
    minPriceSgdMinor: min === undefined ? undefined : fx.toSgdMinor(min, currency),
    maxPriceSgdMinor: max === undefined ? undefined : fx.toSgdMinor(max, currency),
  };
}

/**
 * `modified_since` as the stored change times compare (UTC, milliseconds): any ISO 8601 time with
 * a zone; anything else is refused naming the parameter.
 */
export function modifiedSinceOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) throw invalidInput(['query', 'modified_since'], 'modified_since must be an ISO 8601 time with a zone, e.g. 2026-11-20T12:00:00.000Z', 'datetime_parsing');
  return new Date(ms).toISOString();
}

/** The filter without members that were not given. */
export function clean(f: ListingFilter): ListingFilter {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as ListingFilter;
}

/** Opaque listing cursor: base64url JSON of the sort, the last sort value and id. */
export function encodeCursor(c: PageCursor): string {
  return Buffer.from(JSON.stringify([c.sort, c.value, c.id])).toString('base64url');
}

export function decodeCursor(text: string, sort: PageCursor['sort']): PageCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalidInput(['query', 'cursor'], 'cursor is malformed; pass meta.next_cursor exactly as received');
  const [s, value, id] = parsed as [unknown, unknown, unknown];
  if (s !== sort) throw invalidInput(['query', 'cursor'], 'cursor was issued for another sort_by; start again without it');
  const finite = typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string';
  if (!Number.isSafeInteger(id) || !finite) throw invalidInput(['query', 'cursor'], 'cursor is malformed; pass meta.next_cursor exactly as received');
  return { sort: s as PageCursor['sort'], value: value as string | number, id: id as number };
}
