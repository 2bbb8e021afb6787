import type { ListingRow } from '../sql/listing-row.js';

/**
 * The columns a Listing is read from. `SELECT *` would also copy out what exists only to filter,
 * sort or match on (match_profile above all) into strings nobody reads.
 */
const COLUMNS = [
  'id', 'uuid', 'source', 'sku', 'merchant_id', 'title', 'description', 'brand', 'category', 'category_path', 'gtin', 'mpn',
  'price', 'currency', 'price_sgd', 'price_usd', 'original_price', 'url', 'affiliate_url', 'image_url', 'rating', 'review_count',
  'region', 'country_code', 'in_stock', 'stock_level', 'shipping_days', 'specs', 'metadata', 'variants', 'group_id',
  'price_trend', 'reference_price', 'last_checked_at', 'data_updated_at', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof ListingRow>;

// A ListingRow field added without its column here fails to compile instead of reading undefined.
type Unread = Exclude<keyof ListingRow, (typeof COLUMNS)[number]>;
const everyFieldRead: [Unread] extends [never] ? true : never = true;
void everyFieldRead;

/** How many columns `listingColumns()` selects (what a query selects after them starts here). */
export const LISTING_COLUMN_COUNT = COLUMNS.length;

/**
 * A listing's last check: its row's, or a later one kept in listing_checks. Most lines of a feed
 * imported again only check a listing; written into its row (about 3 KB, five to a 16 KB page),
 * each such check wrote a page of the table again. `alias` is the listings table's alias, if any.
 */
export function lastCheckedAt(alias?: string): string {
  const p = alias ? `${alias}.` : '';
  return `max(${p}last_checked_at, coalesce((SELECT c.checked_at FROM listing_checks c WHERE c.listing_id = ${p}id), ''))`;
}

/** `l.id, l.uuid, ...` (or bare names without an alias), in the order `rowOf` reads them. */
export function listingColumns(alias?: string): string {
  return COLUMNS.map((c) => (c === 'last_checked_at' ? `${lastCheckedAt(alias)} AS last_checked_at` : alias ? `${alias}.${c}` : c)).join(', ');
}

/** The column names alone: what a query selects again from a subquery over `listingColumns()`. */
export const LISTING_COLUMN_NAMES = COLUMNS.join(', ');

/**
 * A raw row (a statement in `.raw()` mode over `listingColumns()`) as the ListingRow `toListing`
 * reads. better-sqlite3 builds an object row one property at a time, which costs about as much as
 * reading the row; an array and this literal cost next to nothing. Same order as COLUMNS.
 */
export function rowOf(a: unknown[]): ListingRow {
  return {
    id: a[0], uuid: a[1], source: a[2], sku: a[3], merchant_id: a[4], title: a[5], description: a[6], brand: a[7],
    category: a[8], category_path: a[9], gtin: a[10], mpn: a[11], price: a[12], currency: a[13], price_sgd: a[14],
    price_usd: a[15], original_price: a[16], url: a[17], affiliate_url: a[18], image_url: a[19], rating: a[20],
    review_count: a[21], region: a[22], country_code: a[23], in_stock: a[24], stock_level: a[25], shipping_days: a[26],
    specs: a[27], metadata: a[28], variants: a[29], group_id: a[30], price_trend: a[31], reference_price: a[32],
    last_checked_at: a[33], data_updated_at: a[34], created_at: a[35], updated_at: a[36],
  } as ListingRow;
}

/** The largest IN list one statement takes; longer lists are read in chunks of it. */
export const IN_LIST_MAX = 512;

/**
 * `values` (1 to IN_LIST_MAX of them) padded to the next power of two by repeating the last one,
 * and the `?, ?, ...` for that arity: ten statements serve every list, and a repeated value
 * changes nothing in an IN list.
 */
export function inList<T>(values: T[]): { params: T[]; marks: string } {
  let n = 1;
  while (n < values.length) n *= 2;
  const params = values.slice();
  while (params.length < n) params.push(values[values.length - 1]);
  return { params, marks: MARKS[n] ??= Array(n).fill('?').join(',') };
}

const MARKS: Record<number, string> = {};
