import { isAccessoryCategory, isAccessoryListing, isAccessoryTitle } from './accessory.js';
import { discountPctScaled, minorScaled, scaledText } from './money.js';
import type { ListingState } from './ingest-rules.js';
import type { NormalizedRecord, StoredColumns } from './ingest-record.js';
import { TwoGenerationCache } from './id-caches.js';
import { indexedCategory } from './search-text.js';
import { listingUuid } from './listing-id.js';
import { slugify } from './slug.js';
import { withFields } from './with-fields.js';

/** "|electronics|mobile phones|electronics|mobile-phones|": names and slugs of every level, for LIKE filters. */
export function categoryKey(path: string[] | null, category: string | null): string | null {
  const names = path && path.length ? path : category ? [category] : [];
  if (!names.length) return null;
  const lower = names.map((n) => n.toLowerCase());
  return `|${[...lower, ...names.map(slugify)].join('|')}|`;
}

// A lower-case ASCII host whose last label has a letter (so not an IPv4 address, which the URL
// parser would rewrite) is what `new URL(url).hostname` returns for it, without the parser's cost.
// A last label like "0x1f" is a hex number to the parser, and "xn--" labels are punycode it
// validates, so those are left to it.
const PLAIN_HOST = /^https?:\/\/((?:[a-z0-9-]+\.)*(?!0x[0-9a-f]*(?:[/?#]|$))[a-z0-9-]*[a-z][a-z0-9-]*)(?=[/?#]|$)/;

/** The URL's host when it is such a plain one (then the URL parser takes the URL and finds that host); null otherwise. */
export function plainHost(url: string): string | null {
  const plain = PLAIN_HOST.exec(url);
  return plain && !plain[1].includes('xn--') ? plain[1] : null;
}

export function domainOf(url: string): string | null {
  const plain = plainHost(url);
  if (plain !== null) return plain.replace(/^www\./, '');
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

const CENTS = /^(\d{1,13})\.(\d\d)$/;

/** Integer SGD cents; an amount already written with two decimals is read off its digits. */
export function sgdMinor(amount: string): number {
  const m = CENTS.exec(amount);
  return m ? Number(m[1]) * 100 + Number(m[2]) : minorScaled(scaledText(amount), 'SGD');
}

const discountOf = (s: { price: string }, than: string | null) => (than ? discountPctScaled(scaledText(s.price), scaledText(than)) : 0);

/** The filter columns that follow from a listing's own fields (a state's, or the record's it is built from). */
function fieldColumns(s: Pick<ListingState, 'categoryPath' | 'category' | 'url' | 'price' | 'originalPrice'>, key = categoryKey(s.categoryPath, s.category)) {
  return { categoryKey: key, domain: domainOf(s.url), discountPct: discountOf(s, s.originalPrice) };
}

/** Columns derived from a listing's state that exist only to be filtered or sorted on. */
export function derivedColumns(s: ListingState) {
  return withFields(fieldColumns(s), {
    historyDiscountPct: historyDiscountPct(s), priceSgdMinor: s.priceSgd ? sgdMinor(s.priceSgd) : 0, accessory: isAccessoryListing(s),
  });
}

/** How far below its own recent median a listing is priced (0 without history). */
export function historyDiscountPct(s: Pick<ListingState, 'price' | 'referencePrice'>): number {
  return discountOf(s, s.referencePrice);
}

/** A JSON column's text (NULL for none). */
export const jsonColumn = (v: unknown): string | null => (v == null ? null : JSON.stringify(v));
/** A JSON column's value: jsonColumn's text parsed back (NULL is null). */
export const fromJsonColumn = <T>(text: string | null): T | null => (text == null ? null : (JSON.parse(text) as T));

// A catalog has a few hundred category paths: the columns each gives are worked out once.
const categoryTexts = new TwoGenerationCache<string, { key: string | null; search: string; accessory: boolean }>(5_000);

/** A record's StoredColumns: its UUID, JSON columns and field columns, as a state built from it has them. */
export function storedColumns(r: Pick<NormalizedRecord, 'source' | 'sku' | 'title' | 'categoryPath' | 'category' | 'specs' | 'metadata' | 'variants' | 'url' | 'price' | 'originalPrice'>): StoredColumns {
  const categoryPath = jsonColumn(r.categoryPath);
  // A path of names is named by its JSON text; an empty or missing one gives way to the category.
  const memo = r.categoryPath?.length ? categoryPath! : `${categoryPath}\u0000${r.category ?? ''}`;
  let category = categoryTexts.get(memo);
  if (category === undefined) {
    category = {
      key: categoryKey(r.categoryPath, r.category), search: indexedCategory(r.categoryPath, r.category),
      accessory: isAccessoryCategory(r.categoryPath, r.category),
    };
    categoryTexts.set(memo, category);
  }
  return {
    uuid: listingUuid(r.source, r.sku),
    categoryPath, specs: jsonColumn(r.specs), metadata: jsonColumn(r.metadata), variants: jsonColumn(r.variants),
    ...fieldColumns(r, category.key), searchCategory: category.search,
    accessory: category.accessory || isAccessoryTitle(r.title),
  };
}
