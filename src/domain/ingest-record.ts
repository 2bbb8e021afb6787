import type { Listing, StockStatus } from './listing.js';
import type { CompactProfile, MatchProfile } from './matching/index.js';

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
  /** Work done for the writer ahead of time, e.g. off its thread; it never changes a decision. */
  prepared?: PreparedRecord;
}

/** What a writer would derive from a record for matching, each field exactly as it would. */
export interface PreparedRecord {
  /** The listing's UUID (a function of source and sku). */
  uuid: string;
  /** profileOfListing of the record's fields. */
  profile: MatchProfile;
  /** encodeProfile(profile), as stored. */
  profileText: string;
  /** blockingKeys(profile). */
  keys: string[];
  /** compactProfile(profile). */
  compact: CompactProfile;
}

export const STOCK_STATUSES: StockStatus[] = ['in_stock', 'low_stock', 'out_of_stock', 'pre_order'];

export type IngestOutcome = 'inserted' | 'updated' | 'unchanged';
