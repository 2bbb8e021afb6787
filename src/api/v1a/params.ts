import type { Currency } from '../../domain/currencies.js';
import { SEA_COUNTRIES } from '../../domain/currencies.js';
import { validationError } from '../../domain/errors.js';
import type { Container } from '../../container.js';
import type { ListingFilter, PageCursor } from '../../store/types.js';

/** "sg,us" / "sea" -> ISO country codes; unknown codes are refused with the field named. */
export function countriesOf(value: string | undefined, field: string): string[] | undefined {
  if (!value) return undefined;
  const out = new Set<string>();
  for (const part of value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean)) {
    if (part === 'SEA') SEA_COUNTRIES.forEach((c) => out.add(c));
    else if (/^[A-Z]{2}$/.test(part)) out.add(part);
    else throw validationError(['query', field], `${field} must be comma-separated two-letter codes or sea, got "${part}"`);
  }
  return [...out];
}

/** Price bounds in `currency` -> SGD cents, refusing min > max with the given error form. */
export function priceBounds(c: Container, min: number | undefined, max: number | undefined, currency: Currency, names: [string, string], code?: 'INVALID_PRICE_RANGE') {
  c.catalog.checkRange(min, max, names, code);
  return { minPriceSgdMinor: c.catalog.boundToSgdMinor(min, currency), maxPriceSgdMinor: c.catalog.boundToSgdMinor(max, currency) };
}

export function clean(f: ListingFilter): ListingFilter {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as ListingFilter;
}

/** Opaque listing cursor: base64url JSON of the sort, the last sort value and id. */
export function encodeCursor(c: PageCursor): string {
  return Buffer.from(JSON.stringify([c.sort, c.value, c.id])).toString('base64url');
}

export function decodeCursor(text: string, sort: PageCursor['sort']): PageCursor {
  try {
    const [s, value, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [string, string | number, number];
    if (s !== sort) throw validationError(['query', 'cursor'], 'cursor was issued for another sort_by; start again without it');
    if (!Number.isInteger(id) || (typeof value !== 'string' && typeof value !== 'number')) throw new Error('shape');
    return { sort: s, value, id };
  } catch (e) {
    if ((e as { code?: string }).code === 'VALIDATION_ERROR') throw e;
    throw validationError(['query', 'cursor'], 'cursor is malformed; pass meta.next_cursor exactly as received');
  }
}
