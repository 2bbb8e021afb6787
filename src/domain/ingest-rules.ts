import Big from 'big.js';
import { changePct, trendOf } from './money.js';
import { createdFromTail, encodeChange } from './event-codec.js';
import type { CatalogChange, EventKind, ListingSnapshot } from './events.js';
import type { NormalizedRecord, IngestOutcome, StoredColumns } from './ingest-record.js';
import type { Listing, PriceTrend } from './listing.js';

/** The listing columns an ingest writes; ids, group and timestamps of creation are the store's. */
export type ListingState = Omit<Listing, 'id' | 'uuid' | 'groupId' | 'createdAt'>;

const JSON_FIELDS = ['categoryPath', 'specs', 'metadata', 'variants'] as const;
type JsonField = (typeof JSON_FIELDS)[number];

/**
 * A listing as its store holds it before a record is applied. `storedJson`, when the store gives
 * it, is its JSON fields as stored (`jsonColumn`'s texts): a record with the same texts has the
 * same values, found without parsing or serializing either side.
 */
export type StoredListing = Listing & { readonly storedJson?: Readonly<Pick<StoredColumns, JsonField>> };

export interface EventDraft {
  kind: EventKind;
  /** The payload as the event log stores it (JSON). */
  json: string;
}

export interface IngestPlan {
  outcome: IngestOutcome;
  /** The state to write; null when nothing is written at all. */
  state: ListingState | null;
  /** Append a price observation at the record's observed_at. */
  observe: boolean;
  /** The title, brand, GTIN or model number changed: the match group must be chosen again. */
  regroup: boolean;
  events: Array<(id: number, uuid: string) => EventDraft>;
}

const draft = (change: CatalogChange): EventDraft => ({ kind: change.kind, json: encodeChange(change) });

const DATA_FIELDS = [
  'merchantId', 'title', 'description', 'brand', 'category', 'gtin', 'mpn', 'price', 'currency',
  'originalPrice', 'url', 'affiliateUrl', 'imageUrl', 'rating', 'reviewCount', 'region', 'countryCode',
  'inStock', 'stockLevel', 'shippingDays',
] as const;
const MATCH_FIELDS = ['title', 'brand', 'gtin', 'mpn'] as const;

function sameData(a: StoredListing, r: NormalizedRecord): boolean {
  for (const f of DATA_FIELDS) if ((a[f] ?? null) !== (r[f] ?? null)) return false;
  for (const f of JSON_FIELDS) {
    const text = a.storedJson?.[f];
    // Texts that differ may still be the same value (written another way): compared as values.
    if (text !== undefined && text === r.stored?.[f]) continue;
    if (JSON.stringify(a[f] ?? null) !== JSON.stringify(r[f] ?? null)) return false;
  }
  return true;
}

/** Median of the prices seen before the current one; null without history. */
export function medianPrice(prices: string[]): string | null {
  if (prices.length === 0) return null;
  const sorted = prices.map((p) => new Big(p)).sort((a, b) => a.cmp(b));
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid].toString() : sorted[mid - 1].plus(sorted[mid]).div(2).toString();
}

/**
 * The state a record gives its listing. Its JSON fields are read from the record when read: a
 * record unpacked from a parse worker parses them only then (record-codec.ts), and a writer that
 * stores a new listing's JSON texts as they came never does.
 */
class RecordState implements ListingState {
  source: string; sku: string; merchantId: string | null; title: string; description: string | null;
  brand: string | null; category: string | null; gtin: string | null; mpn: string | null;
  price: string; currency: NormalizedRecord['currency']; priceSgd: string; priceUsd: string; originalPrice: string | null;
  url: string; affiliateUrl: string | null; imageUrl: string | null; rating: string | null; reviewCount: number | null;
  region: string; countryCode: string; inStock: boolean | null; stockLevel: string | null; shippingDays: number | null;
  priceTrend: PriceTrend; referencePrice: string | null; lastCheckedAt: string; dataUpdatedAt: string; updatedAt: string;
  readonly #r: NormalizedRecord;

  constructor(r: NormalizedRecord, prev: Listing | null, referencePrice: string | null) {
    this.#r = r;
    this.source = r.source; this.sku = r.sku; this.merchantId = r.merchantId; this.title = r.title; this.description = r.description;
    this.brand = r.brand; this.category = r.category; this.gtin = r.gtin; this.mpn = r.mpn;
    this.price = r.price; this.currency = r.currency; this.priceSgd = r.priceSgd; this.priceUsd = r.priceUsd; this.originalPrice = r.originalPrice;
    this.url = r.url; this.affiliateUrl = r.affiliateUrl; this.imageUrl = r.imageUrl; this.rating = r.rating; this.reviewCount = r.reviewCount;
    this.region = r.region; this.countryCode = r.countryCode; this.inStock = r.inStock; this.stockLevel = r.stockLevel; this.shippingDays = r.shippingDays;
    this.priceTrend = prev !== null && prev.price !== r.price ? trendOf(prev.price, r.price) : (prev?.priceTrend ?? 'stable');
    this.referencePrice = referencePrice;
    this.lastCheckedAt = r.observedAt;
    this.dataUpdatedAt = r.observedAt;
    this.updatedAt = r.observedAt;
  }

  get categoryPath() { return this.#r.categoryPath; }
  get specs() { return this.#r.specs; }
  get metadata() { return this.#r.metadata; }
  get variants() { return this.#r.variants; }
}

const stateFrom = (r: NormalizedRecord, prev: Listing | null, referencePrice: string | null): ListingState => new RecordState(r, prev, referencePrice);

/**
 * The state of a listing that a record found unchanged but observed later: `lastCheckedAt` moves
 * on, and every other field is read from the listing when read. Nothing is copied, and the JSON
 * fields a store's listing parses when read (StoredRowListing) stay unparsed: a re-imported feed
 * touches most of its listings this way.
 */
class ObservedAgain implements ListingState {
  constructor(private readonly l: Listing, readonly lastCheckedAt: string) {}
  get source() { return this.l.source; } get sku() { return this.l.sku; } get merchantId() { return this.l.merchantId; }
  get title() { return this.l.title; } get description() { return this.l.description; } get brand() { return this.l.brand; }
  get category() { return this.l.category; } get categoryPath() { return this.l.categoryPath; } get gtin() { return this.l.gtin; }
  get mpn() { return this.l.mpn; } get price() { return this.l.price; } get currency() { return this.l.currency; }
  get priceSgd() { return this.l.priceSgd; } get priceUsd() { return this.l.priceUsd; } get originalPrice() { return this.l.originalPrice; }
  get url() { return this.l.url; } get affiliateUrl() { return this.l.affiliateUrl; } get imageUrl() { return this.l.imageUrl; }
  get rating() { return this.l.rating; } get reviewCount() { return this.l.reviewCount; } get region() { return this.l.region; }
  get countryCode() { return this.l.countryCode; } get inStock() { return this.l.inStock; } get stockLevel() { return this.l.stockLevel; }
  get shippingDays() { return this.l.shippingDays; } get specs() { return this.l.specs; } get metadata() { return this.l.metadata; }
  get variants() { return this.l.variants; } get priceTrend() { return this.l.priceTrend; } get referencePrice() { return this.l.referencePrice; }
  get dataUpdatedAt() { return this.l.dataUpdatedAt; } get updatedAt() { return this.l.updatedAt; }
}

/** The listing an event describes: its state right after the change. */
function snapshot(id: number, uuid: string, s: ListingState): ListingSnapshot {
  return {
    id, uuid, title: s.title, price: s.price, currency: s.currency, priceSgd: s.priceSgd, source: s.source, category: s.category,
    categoryPath: s.categoryPath, countryCode: s.countryCode, inStock: s.inStock, url: s.url, updatedAt: s.updatedAt,
  };
}

/**
 * Decides what one ingest record does to its listing. Pure: both store adapters call it inside
 * their transaction so the rules (what counts as a change, which events) live in one place.
 * `recentPrices` are the listing's observed prices of the last 90 days, oldest first.
 */
export function planIngest(prev: StoredListing | null, r: NormalizedRecord, recentPrices: string[]): IngestPlan {
  if (!prev) {
    const state = stateFrom(r, null, null);
    const tail = r.stored?.createdEventTail;
    return {
      outcome: 'inserted', state, observe: true, regroup: true,
      events: [(id, uuid) => (tail !== undefined && uuid === r.stored?.uuid
        ? { kind: 'product_update', json: createdFromTail(id, tail) }
        : draft({ kind: 'product_update', change: 'created', listing: snapshot(id, uuid, state) }))],
    };
  }
  // An observation older than what we hold is history, not news: the current state stays.
  if (r.observedAt < prev.lastCheckedAt) return { outcome: 'unchanged', state: null, observe: false, regroup: false, events: [] };
  if (sameData(prev, r)) {
    const touched = r.observedAt > prev.lastCheckedAt;
    return {
      outcome: 'unchanged', observe: false, regroup: false, events: [],
      state: touched ? new ObservedAgain(prev, r.observedAt) : null,
    };
  }
  const priceChanged = prev.price !== r.price || prev.currency !== r.currency;
  const reference = priceChanged ? medianPrice(recentPrices) : prev.referencePrice;
  const state = stateFrom(r, prev, reference);
  const events: IngestPlan['events'] = [(id, uuid) => draft({ kind: 'product_update', change: 'updated', listing: snapshot(id, uuid, state) })];
  if (priceChanged && prev.currency === r.currency) {
    events.push((id, uuid) => draft({
      kind: 'price_change', listing: snapshot(id, uuid, state), oldPrice: prev.price, newPrice: r.price,
      oldPriceSgd: prev.priceSgd, changePct: changePct(new Big(prev.price), new Big(r.price)),
    }));
  }
  if (prev.inStock !== r.inStock || prev.stockLevel !== r.stockLevel) {
    events.push((id, uuid) => draft({
      kind: 'stock_change', listing: snapshot(id, uuid, state), oldInStock: prev.inStock, newInStock: r.inStock,
      oldStockLevel: prev.stockLevel, newStockLevel: r.stockLevel,
    }));
  }
  return {
    outcome: 'updated', state, observe: priceChanged, events,
    regroup: MATCH_FIELDS.some((f) => (prev[f] ?? null) !== (r[f] ?? null)),
  };
}
