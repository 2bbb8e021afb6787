import type { Listing, StockStatus } from './listing.js';
import type { MatchProfile } from './matching/index.js';

/**
 * An ingest record after validation and normalization: every field typed, money exact, the
 * SGD/USD normalizations computed. The store writes it; it never sees raw input.
 */
export interface NormalizedRecord extends Omit<Listing,
  'id' | 'uuid' | 'groupId' | 'priceTrend' | 'referencePrice' | 'lastCheckedAt' | 'dataUpdatedAt' | 'createdAt' | 'updatedAt' | 'priceSgd' | 'priceUsd'> {
  /** The line of the input it came from, for reports. */
  line: number;
  priceSgd: string;
  priceUsd: string;
  /** SGD price in integer cents: exact ordering and range filters. */
  priceSgdMinor: number;
  observedAt: string;
  /**
   * The matching profile of the listing this record describes (`profileOfListing` of its fields),
   * when the caller built it already, e.g. off the writer's thread. A store may use it instead of
   * building its own; it never changes a decision.
   */
  matchProfile?: MatchProfile;
}

export const STOCK_STATUSES: StockStatus[] = ['in_stock', 'low_stock', 'out_of_stock', 'pre_order'];

export type IngestOutcome = 'inserted' | 'updated' | 'unchanged';
