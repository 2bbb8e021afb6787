import type { CatalogEvent, EventKind, ListingSnapshot } from './events.js';
import { categoryKey } from './listing-columns.js';
import { minorScaled, scaledText } from './money.js';

/**
 * Which events a V2 stream sends (spec 4.4, 6.1): the same filter meanings as the V2 listing
 * (category a case-insensitive part of the category or its path, platform exact, countries,
 * SGD price bounds inclusive, stock flag), applied to the listing as the event left it.
 */
export type StreamName = 'products' | 'prices';

/**
 * The product stream tells of data and stock changes, the price stream of price changes; each
 * also tells its key's account of its own alerts firing (stock alerts on products, price alerts on prices).
 */
export const STREAM_KINDS: Record<StreamName, readonly EventKind[]> = {
  products: ['product_update', 'stock_change', 'alert_fired'],
  prices: ['price_change', 'alert_fired'],
};

export interface StreamFilter {
  stream: StreamName;
  /** The account of the stream's key: the only one whose alert firings it sends. */
  accountId?: number;
  /** Lower case, matched against the category key (names and slugs of every level). */
  categoryLike?: string;
  /** Platform keys, lower case. */
  sources?: string[];
  countries?: string[];
  minPriceSgdMinor?: number;
  maxPriceSgdMinor?: number;
  inStock?: boolean;
  /** Price stream: integer product ids. */
  productIds?: ReadonlySet<number>;
  /** Price stream: the least size of a change, in percent either way (0: every change). */
  minChangePct?: number;
}

export type StockStatus = 'in_stock' | 'low_stock' | 'out_of_stock';

/** The stock status of V2 (its `stock_level`): from the stock flag and level; null when unknown. */
export function stockStatus(inStock: boolean | null, stockLevel: string | null): StockStatus | null {
  if (inStock === false) return 'out_of_stock';
  if (stockLevel === 'low' || stockLevel === 'low_stock') return 'low_stock';
  return inStock === true ? 'in_stock' : null;
}

interface Derived { key: string | null; sgdMinor: number | null }

// Every stream reads the same event objects the tail hands out: derive their filter columns once.
const derived = new WeakMap<ListingSnapshot, Derived>();

function derive(l: ListingSnapshot): Derived {
  let d = derived.get(l);
  if (!d) {
    d = { key: categoryKey(l.categoryPath, l.category), sgdMinor: l.priceSgd === null ? null : minorScaled(scaledText(l.priceSgd), 'SGD') };
    derived.set(l, d);
  }
  return d;
}

/** Whether `e` is sent on a stream with filter `f`. */
export function streamMatches(f: StreamFilter, e: CatalogEvent): boolean {
  const c = e.change;
  if (!STREAM_KINDS[f.stream].includes(c.kind)) return false;
  // An alert is its owner's own subscription: the stream's listing filters do not apply to it.
  if (c.kind === 'alert_fired') return c.accountId === f.accountId && (c.condition.type === 'back_in_stock') === (f.stream === 'products');
  const l = c.listing;
  if (f.productIds && !f.productIds.has(l.id)) return false;
  if (f.sources && !f.sources.includes(l.source)) return false;
  if (f.countries && !f.countries.includes(l.countryCode)) return false;
  // Unknown stock matches neither true nor false (as in the listing filter).
  if (f.inStock !== undefined && l.inStock !== f.inStock) return false;
  if (c.kind === 'price_change' && f.minChangePct && Math.abs(c.changePct) < f.minChangePct) return false;
  // Spec 6.1: a stock status changes. A level moving within one status (high to medium) is not news.
  if (c.kind === 'stock_change' && stockStatus(c.oldInStock, c.oldStockLevel) === stockStatus(c.newInStock, c.newStockLevel)) return false;
  if (f.categoryLike !== undefined || f.minPriceSgdMinor !== undefined || f.maxPriceSgdMinor !== undefined) {
    const d = derive(l);
    if (f.categoryLike !== undefined && !(d.key ?? '').includes(f.categoryLike)) return false;
    // Like the listing filters: a listing without an SGD price is outside any price bound.
    if (f.minPriceSgdMinor !== undefined && (d.sgdMinor === null || d.sgdMinor < f.minPriceSgdMinor)) return false;
    if (f.maxPriceSgdMinor !== undefined && (d.sgdMinor === null || d.sgdMinor > f.maxPriceSgdMinor)) return false;
  }
  return true;
}
