import { createHash } from 'node:crypto';
import Big from 'big.js';
import { discountPct, toMinor } from '../domain/money.js';
import type { ListingState } from '../domain/ingest-rules.js';

/** Lower-case kebab slug of a category name: "Home & Living" -> "home-living". */
export function slugify(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/&/g, ' ').replace(/[^a-z0-9\u0E00-\u0E7F]+/g, '-').replace(/^-+|-+$/g, '');
}

/** "|electronics|mobile phones|electronics|mobile-phones|": names and slugs of every level, for LIKE filters. */
export function categoryKey(path: string[] | null, category: string | null): string | null {
  const names = path && path.length ? path : category ? [category] : [];
  if (!names.length) return null;
  const lower = names.map((n) => n.toLowerCase());
  return `|${[...lower, ...names.map(slugify)].join('|')}|`;
}

export function domainOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** Stable UUID (version 5 layout) from (source, sku): the same listing has the same UUID in every store. */
export function listingUuid(source: string, sku: string): string {
  const h = createHash('sha1').update(`catalog-listing\u0000${source}\u0000${sku}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** Columns derived from a listing's state that exist only to be filtered or sorted on. */
export function derivedColumns(s: ListingState) {
  const price = new Big(s.price);
  return {
    categoryKey: categoryKey(s.categoryPath, s.category),
    domain: domainOf(s.url),
    discountPct: discountPct(price, s.originalPrice ? new Big(s.originalPrice) : null),
    historyDiscountPct: discountPct(price, s.referencePrice ? new Big(s.referencePrice) : null),
    priceSgdMinor: s.priceSgd ? toMinor(new Big(s.priceSgd), 'SGD') : 0,
  };
}
