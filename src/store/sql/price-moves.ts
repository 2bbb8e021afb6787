/** The query of `CatalogStore.priceMoves`, the same text on both stores. */
import type { PriceMove } from '../../domain/trending.js';
import type { ListingFilter } from '../types.js';
import { whereOf } from './filters.js';

/**
 * The listings (matching `filter`) with a price change observed at or after `since`, one row each:
 * observations are written when a listing is created and when its price changes, so a change is an
 * observation after the listing's creation. Only listings updated in the window can have one
 * (`listings_updated` finds them: grouping by updated_at first lets SQLite walk that index instead
 * of the whole table), and each one's observations are read by their primary key.
 */
export function priceMovesQuery(since: string, filter: ListingFilter): { sql: string; params: unknown[] } {
  const w = whereOf(filter);
  const before = (col: string) => `(SELECT p.${col} FROM observations p WHERE p.listing_id = m.id AND p.observed_at < m.first_at
      ORDER BY p.observed_at DESC LIMIT 1)`;
  return {
    sql: `SELECT m.id, m.price, m.currency, m.changes, m.last_at, ${before('price')} AS before_price, ${before('currency')} AS before_currency
    FROM (SELECT l.id AS id, l.price AS price, l.currency AS currency, count(*) AS changes, min(o.observed_at) AS first_at, max(o.observed_at) AS last_at
      FROM listings l JOIN observations o ON o.listing_id = l.id AND o.observed_at >= ? AND o.observed_at > l.created_at
      WHERE l.updated_at >= ?${w.sql === '1' ? '' : ` AND ${w.sql}`}
      GROUP BY l.updated_at, l.id, l.price, l.currency) m`,
    params: [since, since, ...w.params],
  };
}

export interface PriceMoveRow {
  id: number; price: string; currency: string; changes: number; last_at: string; before_price: string | null; before_currency: string | null;
}

export const toPriceMove = (r: PriceMoveRow): PriceMove => ({
  id: r.id, price: r.price, currency: r.currency, before: r.before_price, beforeCurrency: r.before_currency,
  changes: r.changes, lastChangeAt: r.last_at,
});
