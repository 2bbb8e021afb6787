import { listingCtx, recordOf, type ListingCtx } from './listing.js';
import { groupSizeOf, nameKeyOf, platformsFor, productAt, type DemoProduct } from './products.js';
import type { IngestRecordInput } from './record.js';
import type { Platform } from './platforms.js';
import { timelineOf, type Observation, type Window } from './timeline.js';

export type { IngestRecordInput, IngestVariantInput, DemoRegion, DemoStockStatus, StockLevel } from './record.js';

export interface DemoOptions {
  /** Distinct (source, sku) listings; default 20,000. */
  listings: number;
  seed?: number;
  /** Days of price history before `now`; default 90, 0 = one record per listing. */
  historyDays?: number;
  now?: Date;
  /**
   * Adds `metadata.demo_truth` = { product, role } to every record: which listings are the same
   * product, for matching evaluations. Off by default so matching cannot lean on it.
   */
  groundTruth?: boolean;
}

export const DEFAULT_LISTINGS = 20_000;
export const DEFAULT_SEED = 42;
const DEFAULT_NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const DAY_MS = 86_400_000;
/** Stale listings reach 75 days back; the origin sits before both that and the window. */
const OLDEST_AGE_DAYS = 76;
// Sort key = t * 2^28 + listing * 2^4 + record: exact in a double while t < 2^25 s (388 days).
const T_MUL = 2 ** 28;
const L_MUL = 16;
const MAX_LISTINGS = 2 ** 24 - 1;
const PRODUCT_CACHE = 64;
const LISTING_CACHE = 100_000;

interface Layout {
  product: Int32Array;
  slot: Uint8Array;
  size: Uint8Array;
  /** Per product: 1 when its catalogue name was taken by an earlier product (a long-tail product). */
  longTail: Uint8Array;
}

/**
 * Listing index -> (product, slot in the product's group). Products take consecutive indices.
 * The first product to draw a catalogue name owns it; later ones become long-tail products, so
 * the number of distinct products grows with the catalogue and each keeps its 1 to 6 listings.
 */
function layoutOf(seed: number, listings: number): Layout {
  const product = new Int32Array(listings);
  const slot = new Uint8Array(listings);
  const size = new Uint8Array(listings);
  const longTail = new Uint8Array(listings);
  const names = new Set<string>();
  for (let i = 0, p = 0; i < listings; p++) {
    const key = nameKeyOf(seed, p);
    if (names.has(key)) longTail[p] = 1;
    else names.add(key);
    const n = Math.min(groupSizeOf(seed, p), listings - i);
    for (let s = 0; s < n; s++, i++) {
      product[i] = p;
      slot[i] = s;
      size[i] = n;
    }
  }
  return { product, slot, size, longTail };
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, k) => (k < 10 ? '0' : '') + k);

/** ISO strings for whole seconds after an origin; the date part is formatted once per day. */
class IsoClock {
  private day = -1;
  private datePart = '';
  private readonly msPart: string;
  constructor(private readonly originMs: number) {
    this.msPart = new Date(originMs).toISOString().slice(19);
  }

  iso(seconds: number): string {
    const ms = this.originMs + seconds * 1000;
    const day = Math.floor(ms / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.datePart = new Date(day * DAY_MS).toISOString().slice(0, 11);
    }
    const s = Math.floor((ms - day * DAY_MS) / 1000);
    return this.datePart + TWO_DIGITS[Math.floor(s / 3600)] + ':' + TWO_DIGITS[Math.floor(s / 60) % 60] + ':' + TWO_DIGITS[s % 60] + this.msPart;
  }
}

function check(opts: DemoOptions): { listings: number; seed: number; historyDays: number; nowMs: number } {
  const listings = opts.listings ?? DEFAULT_LISTINGS;
  const historyDays = opts.historyDays ?? 90;
  if (!Number.isInteger(listings) || listings < 0 || listings > MAX_LISTINGS) throw new RangeError(`listings must be an integer in 0..${MAX_LISTINGS}`);
  if (!Number.isInteger(historyDays) || historyDays < 0 || historyDays > 365) throw new RangeError('historyDays must be an integer in 0..365');
  const seed = (opts.seed ?? DEFAULT_SEED) >>> 0;
  const nowMs = opts.now ? opts.now.getTime() : DEFAULT_NOW;
  if (!Number.isFinite(nowMs)) throw new RangeError('now must be a valid date');
  return { listings, seed, historyDays, nowMs };
}

/**
 * Yields a demo catalog as ingest records in chronological order of observed_at: every
 * listing's first observation (in the first hours of the history window), then the price and
 * stock changes over the window, ending with each listing's latest state. A listing's later
 * records repeat its full record with the new price and stock (same (source, sku) = update).
 * Stale listings (last seen 8-29 days ago) and very stale ones (31-75 days) simply stop early;
 * with `historyDays: 0` every listing has one record, at its last-seen time.
 *
 * Deterministic: the output depends only on the options (no clock, no Math.random). Memory is
 * one 8-byte sort key per record plus a few bytes per listing; records are built as they are yielded.
 */
export function* generateDemoRecords(opts: DemoOptions): Generator<IngestRecordInput> {
  const { listings, seed, historyDays, nowMs } = check(opts);
  const groundTruth = opts.groundTruth ?? false;
  const spanDays = Math.max(historyDays, OLDEST_AGE_DAYS) + 1;
  const originMs = nowMs - spanDays * DAY_MS;
  const w: Window = { now: spanDays * 86_400, historyDays, listings };
  const layout = layoutOf(seed, listings);
  const longTail = (p: number) => layout.longTail[p] === 1;
  const clock = new IsoClock(originMs);

  let keys = new Float64Array(Math.max(16, historyDays > 0 ? listings * 8 : listings));
  let n = 0;
  for (let i = 0; i < listings; i++) {
    const tl = timelineOf(seed, i, w);
    if (n + tl.length > keys.length) {
      const grown = new Float64Array(keys.length * 2);
      grown.set(keys);
      keys = grown;
    }
    for (let k = 0; k < tl.length; k++) keys[n++] = tl[k].t * T_MUL + i * L_MUL + k;
  }
  const order = keys.subarray(0, n).sort();

  // Listings of one product are mostly emitted close together, and a listing's later records
  // reuse what its first one built; both caches are bounded so a million listings stay small.
  const products = new Map<number, { product: DemoProduct; platforms: Platform[] }>();
  const listingsSeen = new Map<number, { ctx: ListingCtx; timeline: Observation[] }>();
  for (let r = 0; r < n; r++) {
    const key = order[r];
    const t = Math.floor(key / T_MUL);
    const rest = key - t * T_MUL;
    const i = Math.floor(rest / L_MUL);
    const k = rest - i * L_MUL;
    let entry = listingsSeen.get(i);
    if (!entry) {
      const p = layout.product[i];
      let prod = products.get(p);
      if (!prod) {
        if (products.size >= PRODUCT_CACHE) products.clear();
        const product = productAt(seed, p, longTail);
        prod = { product, platforms: platformsFor(seed, product, layout.size[i]) };
        products.set(p, prod);
      }
      entry = { ctx: listingCtx(seed, i, prod.product, prod.platforms[layout.slot[i]], groundTruth), timeline: timelineOf(seed, i, w) };
      if (entry.timeline.length > 1 && listingsSeen.size < LISTING_CACHE) listingsSeen.set(i, entry);
    }
    if (k === entry.timeline.length - 1) listingsSeen.delete(i);
    yield recordOf(entry.ctx, entry.timeline[k], clock.iso(t), t - entry.timeline[0].t);
  }
}
