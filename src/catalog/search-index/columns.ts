import { PRICE_FACET_RANGES, RATING_FACET_FLOORS } from '../../domain/facets.js';
import type { SearchDoc } from '../../store/types.js';

/** Stock levels the availability facet counts (case-insensitive, as the stores compare them). */
export const STOCK_KINDS = ['preorder', 'discontinued'] as const;

/** What the index keeps of a listing. */
export type IndexDoc = SearchDoc;

/** Distinct strings of one column, numbered from 1 (0 is null). Filters test each distinct value once per query. */
export class Dict {
  private readonly ids = new Map<string, number>();
  readonly values: Array<string | null> = [null];

  id(value: string | null): number {
    if (value === null) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  /** 1 at every value the test accepts; null (0) never matches, as SQL's LIKE and IN never match NULL. */
  mask(test: (value: string) => boolean): Uint8Array {
    const m = new Uint8Array(this.values.length);
    for (let i = 1; i < m.length; i++) if (test(this.values[i]!)) m[i] = 1;
    return m;
  }
}

/** One typed array per column, indexed by listing id and grown as ids grow. */
export class Columns {
  readonly categories = new Dict();
  readonly categoryKeys = new Dict();
  readonly sources = new Dict();
  readonly brands = new Dict();
  readonly domains = new Dict();
  readonly countries = new Dict();
  readonly paths = new Dict();

  alive = new Uint8Array(0);
  /** Tokens in title, brand and category together (FTS5's row length). */
  length = new Uint16Array(0);
  signature = new Float64Array(0);
  category = new Uint32Array(0);
  categoryKey = new Uint32Array(0);
  /** The category path's JSON text (`paths`), 0 without one: what the category counts group by. */
  path = new Uint32Array(0);
  source = new Uint32Array(0);
  brand = new Uint32Array(0);
  domain = new Uint32Array(0);
  country = new Uint32Array(0);
  /** 1 in stock, 0 out of stock, -1 unknown. */
  inStock = new Int8Array(0);
  /** The stock levels availability names (`STOCK_KINDS`): 1 + the index of the listing's, 0 for any other. */
  stockKind = new Uint8Array(0);
  price = new Float64Array(0);
  discount = new Float64Array(0);
  historyDiscount = new Float64Array(0);
  /** -Infinity when unknown, so "descending, unknown last" is plain descending. */
  rating = new Float64Array(0);
  reviews = new Float64Array(0);
  updated = new Float64Array(0);
  /** How many rating facet floors the listing reaches (floors run high to low, so it reaches the last n). */
  ratingLevel = new Uint8Array(0);
  /** 1 + the index of the price facet range holding the listing's price (0: none). */
  priceBand = new Uint8Array(0);
  /** 1 for an accessory (domain/accessory.ts). */
  accessory = new Uint8Array(0);

  ensure(id: number): void {
    if (id < this.alive.length) return;
    const size = Math.max(id + 1, Math.ceil(this.alive.length * 1.5), 1024);
    const grow = <T extends Uint8Array | Uint16Array | Uint32Array | Int8Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.alive = grow(this.alive);
    this.length = grow(this.length);
    this.signature = grow(this.signature);
    this.category = grow(this.category);
    this.categoryKey = grow(this.categoryKey);
    this.path = grow(this.path);
    this.source = grow(this.source);
    this.brand = grow(this.brand);
    this.domain = grow(this.domain);
    this.country = grow(this.country);
    this.inStock = grow(this.inStock);
    this.stockKind = grow(this.stockKind);
    this.price = grow(this.price);
    this.discount = grow(this.discount);
    this.historyDiscount = grow(this.historyDiscount);
    this.rating = grow(this.rating);
    this.reviews = grow(this.reviews);
    this.updated = grow(this.updated);
    this.ratingLevel = grow(this.ratingLevel);
    this.priceBand = grow(this.priceBand);
    this.accessory = grow(this.accessory);
  }

  set(d: IndexDoc): void {
    const id = d.id;
    this.category[id] = this.categories.id(d.category);
    this.categoryKey[id] = this.categoryKeys.id(d.categoryKey);
    this.path[id] = this.paths.id(d.categoryPathText);
    this.source[id] = this.sources.id(d.source);
    this.brand[id] = this.brands.id(d.brand);
    this.domain[id] = this.domains.id(d.domain);
    this.country[id] = this.countries.id(d.countryCode);
    this.inStock[id] = d.inStock === null ? -1 : d.inStock ? 1 : 0;
    this.stockKind[id] = 1 + STOCK_KINDS.indexOf(d.stockLevel?.toLowerCase() as (typeof STOCK_KINDS)[number]);
    this.price[id] = d.priceSgdMinor;
    this.discount[id] = d.discountPct;
    this.historyDiscount[id] = d.historyDiscountPct;
    this.rating[id] = d.rating ?? -Infinity;
    this.reviews[id] = d.reviewCount ?? -Infinity;
    this.updated[id] = d.updatedAt;
    this.ratingLevel[id] = d.rating === null ? 0 : RATING_FACET_FLOORS.filter((f) => d.rating! >= f).length;
    this.accessory[id] = d.accessory ? 1 : 0;
    this.priceBand[id] = 1 + PRICE_FACET_RANGES.findIndex((b) => (b.minMinor === null || d.priceSgdMinor >= b.minMinor) && (b.maxMinor === null || d.priceSgdMinor < b.maxMinor));
  }
}
