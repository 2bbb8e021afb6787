/**
 * The reads behind the decision signals (domain/decision-signals.ts), as both adapters run them:
 * plain SQL with `?` placeholders; each adapter writes its own condition on a list of ids
 * (`x IN (?, ?)` on SQLite, `x = ANY(?::bigint[])` on PostgreSQL) and binds the parameters in the
 * order given.
 */
import type { GroupOffers } from '../../domain/buybox.js';
import type { Currency } from '../../domain/currencies.js';
import type { PriceObservation } from '../../domain/listing.js';

/** domain/buybox.ts isOffer, over columns with the prefix `p`; binds offeredSince once. */
const offer = (p: string) => `COALESCE(${p}in_stock, 1) <> 0 AND ${p}price_sgd_minor > 0 AND ${p}last_checked_at >= ?`;

/**
 * (PostgreSQL; the embedded store folds its group index's members with domain/buybox.ts offersOf.)
 * Each group's size and offer count, and its cheapest offer (ordered as domain/buybox.ts
 * offerOrder), one row per group. `groups` is the condition on `group_id`. Binds: offeredSince,
 * the ids of `groups`, offeredSince.
 */
export const groupOffersSql = (groups: string): string => `SELECT g.group_id AS group_id, g.size AS size, g.offers AS offers,
  c.id AS id, c.price AS price, c.currency AS currency, c.price_sgd_minor AS price_sgd_minor, c.last_checked_at AS last_checked_at
FROM (SELECT group_id, count(*) AS size, sum(CASE WHEN ${offer('')} THEN 1 ELSE 0 END) AS offers
  FROM listings WHERE ${groups} GROUP BY group_id) g
LEFT JOIN listings c ON c.id = (SELECT m.id FROM listings m WHERE m.group_id = g.group_id AND ${offer('m.')}
  ORDER BY m.price_sgd_minor, m.last_checked_at DESC, m.id LIMIT 1)`;

export interface GroupOffersRow {
  group_id: number;
  size: number;
  offers: number;
  id: number | null;
  price: string | null;
  currency: string | null;
  price_sgd_minor: number | null;
  last_checked_at: string | null;
}

export function toGroupOffers(r: GroupOffersRow): GroupOffers {
  return {
    size: Number(r.size), offers: Number(r.offers ?? 0),
    cheapest: r.id === null ? null : {
      listingId: Number(r.id), price: r.price!, currency: r.currency as Currency, priceSgdMinor: Number(r.price_sgd_minor), lastCheckedAt: r.last_checked_at!,
    },
  };
}

/**
 * Each listing's observations at or after `since` and its last one before `since`, ordered by
 * listing and time. `listings` is the condition on `listing_id`, written twice. Binds: the ids,
 * since, the ids, since.
 */
export const observationsForSql = (listings: string): string => `SELECT listing_id, observed_at, price, currency, source
  FROM observations WHERE ${listings} AND observed_at >= ?
UNION ALL
SELECT o.listing_id, o.observed_at, o.price, o.currency, o.source FROM observations o
  JOIN (SELECT listing_id AS id, max(observed_at) AS at FROM observations WHERE ${listings} AND observed_at < ? GROUP BY listing_id) b
  ON o.listing_id = b.id AND o.observed_at = b.at
ORDER BY 1, 2`;

export interface ObservationRow { listing_id: number; observed_at: string; price: string; currency: string; source: string }

/** Rows of observationsForSql (any number of reads of it) into lists per listing. */
export function collectObservations(rows: Iterable<ObservationRow>, into = new Map<number, PriceObservation[]>()): Map<number, PriceObservation[]> {
  for (const r of rows) {
    const id = Number(r.listing_id);
    let list = into.get(id);
    if (!list) into.set(id, (list = []));
    list.push({ listingId: id, observedAt: r.observed_at, price: r.price, currency: r.currency as Currency, source: r.source });
  }
  return into;
}
