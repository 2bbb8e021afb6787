import Big from 'big.js';
import { changePct } from './money.js';
import { withFields } from './with-fields.js';

/** The window trending looks back over, in days. */
export const TRENDING_WINDOW_DAYS = 7;

/** What trending ranks ranks by, in words: the API and docs/ranking.md say the same. */
export const TRENDING_RULE = `listings whose price fell over the last ${TRENDING_WINDOW_DAYS} days, biggest drop (percent) first, `
  + 'then more price changes in the window, then the latest change, then the newest listing';

/** A listing's price moves within the window, as the store reads them (`CatalogStore.priceMoves`). */
export interface PriceMove {
  id: number;
  /** Its current price and currency. */
  price: string;
  currency: string;
  /** The price before its first change in the window (the one it had at the window's start, or at creation), and its currency. */
  before: string | null;
  beforeCurrency: string | null;
  /** Price changes observed in the window (observations after the listing's first). */
  changes: number;
  /** ISO time of the latest of them. */
  lastChangeAt: string;
}

export interface Trend extends PriceMove {
  /** How far the price fell over the window, percent of the earlier price, 2 decimals (exact, then rounded once). */
  dropPct: number;
}

/**
 * Trending (docs/ranking.md): of the listings whose price changed in the window, those whose price
 * is now lower than before the window's first change, ranked by TRENDING_RULE. A price compared
 * with one in another currency is no drop.
 */
export function rankTrending(moves: readonly PriceMove[]): Trend[] {
  const trends: Trend[] = [];
  for (const m of moves) {
    if (m.changes < 1 || m.before === null || m.beforeCurrency !== m.currency) continue;
    const dropPct = -changePct(new Big(m.before), new Big(m.price));
    if (dropPct > 0) trends.push(withFields(m, { dropPct }));
  }
  return trends.sort((a, b) => b.dropPct - a.dropPct || b.changes - a.changes
    || (a.lastChangeAt < b.lastChangeAt ? 1 : a.lastChangeAt > b.lastChangeAt ? -1 : 0) || b.id - a.id);
}
