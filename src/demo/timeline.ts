import { Rng, STREAM } from './prng.js';
import type { StockLevel } from './record.js';

const HOUR = 3600;
const DAY = 24 * HOUR;
/**
 * Every listing's first observation falls in the hours just before the window, so the window's
 * prices are known from its first day (the honest-deal check reads the last 90 days whole);
 * changes come after.
 */
const FIRST_SPREAD = 6 * HOUR;
const CHANGES_FROM = 7 * HOUR;
/** A listing has at most this many records (the event index has 4 bits in the sort key). */
export const MAX_RECORDS = 15;

export interface Window {
  /** Seconds from the generator's origin. */
  now: number;
  historyDays: number;
  listings: number;
}

/** One record's state relative to the listing's base price (basis points, 10000 = base). */
export interface Observation {
  t: number;
  priceBp: number;
  /** The regular (not promotional) price, for the crossed-out original price. */
  regularBp: number;
  onPromo: boolean;
  inStock: boolean;
  level: StockLevel | null;
}

const enum Ev { PromoStart, PromoEnd, Drop, Drift, Raise, StockOut, Restock, Level }

interface Change { t: number; ev: Ev; v: number }

const LEVELS: StockLevel[] = ['low', 'medium', 'high'];

/**
 * When the listing was last seen: three in four within a day, about 5% 8-29 days ago (stale)
 * and 3% over 30 days ago (very stale).
 */
function ageOf(rng: Rng, place: number): number {
  const u = rng.next();
  if (u < 0.03) return rng.int(31 * DAY, 75 * DAY);
  if (u < 0.08) return rng.int(8 * DAY, 29 * DAY);
  if (u < 0.25) return rng.int(DAY, 7 * DAY);
  // Fresh listings were seen by a daily crawl that walks the catalog in listing order.
  return 60 + Math.floor((1 - place) * 23 * HOUR);
}

/**
 * A listing's observations, oldest first: the first one, the price and stock changes over the
 * window (promotions that revert, permanent drops, small drifts, stock-outs), and the latest.
 * Pure in (seed, listing): the generator calls it once to sort and again to emit.
 */
export function timelineOf(seed: number, listing: number, w: Window): Observation[] {
  const rng = Rng.for(seed, STREAM.timeline, listing);
  // Position in the crawl order, so listings of one product (adjacent indices) are seen together.
  const place = (listing + rng.next()) / Math.max(1, w.listings);
  const last = w.now - ageOf(rng, place);
  const start = w.now - w.historyDays * DAY;
  const spread = Math.min(FIRST_SPREAD, (w.historyDays * DAY) / 10);
  const first = start - spread + Math.floor(place * spread);
  const inStock = rng.chance(0.93);
  const initial: Observation = {
    t: first, priceBp: 10_000, regularBp: 10_000, onPromo: false, inStock,
    level: inStock ? LEVELS[rng.weighted([3, 7, 10])] : null,
  };
  const from = start + CHANGES_FROM;
  const to = last - 60;
  if (to <= from + HOUR) return [{ ...initial, t: last }];

  const activity = 0.2 + rng.next() * 1.6;
  const scale = (activity * (to - from)) / (90 * DAY);
  const changes: Change[] = [];
  for (let n = rng.count(1.3 * scale); n > 0; n--) {
    const t = from + Math.floor(rng.next() * (to - from));
    const id = changes.length;
    changes.push({ t, ev: Ev.PromoStart, v: rng.int(800, 3500) * 100 + id });
    const end = t + rng.int(DAY, 7 * DAY);
    if (end < to) changes.push({ t: end, ev: Ev.PromoEnd, v: id });
  }
  for (let n = rng.count(0.4 * scale); n > 0; n--) changes.push({ t: from + Math.floor(rng.next() * (to - from)), ev: Ev.Drop, v: rng.int(500, 2000) });
  for (let n = rng.count(1.6 * scale); n > 0; n--) changes.push({ t: from + Math.floor(rng.next() * (to - from)), ev: Ev.Drift, v: rng.int(-400, 400) || 50 });
  for (let n = rng.count(0.2 * scale); n > 0; n--) changes.push({ t: from + Math.floor(rng.next() * (to - from)), ev: Ev.Raise, v: rng.int(300, 1000) });
  for (let n = rng.count(0.15 * scale); n > 0; n--) {
    const t = from + Math.floor(rng.next() * (to - from));
    changes.push({ t, ev: Ev.StockOut, v: 0 });
    const back = t + rng.int(DAY, 10 * DAY);
    if (back < to) changes.push({ t: back, ev: Ev.Restock, v: 0 });
  }
  for (let n = rng.count(0.6 * scale); n > 0; n--) changes.push({ t: from + Math.floor(rng.next() * (to - from)), ev: Ev.Level, v: rng.int(0, 2) });
  changes.sort((a, b) => a.t - b.t || a.ev - b.ev);
  if (changes.length > MAX_RECORDS - 2) changes.length = MAX_RECORDS - 2;

  const out: Observation[] = [initial];
  let regular = 10_000;
  let promoBp = 0;
  let promoId = -1;
  let stock = inStock;
  let level = initial.level;
  for (const c of changes) {
    switch (c.ev) {
      case Ev.PromoStart:
        if (promoId < 0) { promoBp = Math.floor(c.v / 100); promoId = c.v % 100; }
        break;
      case Ev.PromoEnd:
        if (promoId === c.v) { promoBp = 0; promoId = -1; }
        break;
      case Ev.Drop: regular = Math.round((regular * (10_000 - c.v)) / 10_000); break;
      case Ev.Drift: regular = Math.round((regular * (10_000 + c.v)) / 10_000); break;
      case Ev.Raise: regular = Math.round((regular * (10_000 + c.v)) / 10_000); break;
      case Ev.StockOut: stock = false; level = null; break;
      case Ev.Restock: stock = true; level = 'high'; break;
      case Ev.Level: if (stock) level = LEVELS[c.v]; break;
    }
    out.push(observation(c.t, regular, promoBp, stock, level));
  }
  out.push(observation(last, regular, promoBp, stock, level));
  return out;
}

function observation(t: number, regular: number, promoBp: number, inStock: boolean, level: StockLevel | null): Observation {
  return {
    t, regularBp: regular, onPromo: promoBp > 0, inStock, level,
    priceBp: promoBp > 0 ? Math.round((regular * (10_000 - promoBp)) / 10_000) : regular,
  };
}
