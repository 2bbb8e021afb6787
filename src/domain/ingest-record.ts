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
  /**
   * The matching profile of the listing this record describes (`profileOfListing` of its fields),
   * when the caller built it already, e.g. off the writer's thread. A store may use it instead of
   * building its own; it never changes a decision.
   */
  matchProfile?: MatchProfile;
  /** More work done for a writer ahead of time, from `matchProfile`; it never changes a decision either. */
  prepared?: PreparedRecord;
  /** The record's columns as a store writes them, worked out off the writer's thread. */
  stored?: StoredColumns;
}

/**
 * The columns a store writes that follow from the record's fields alone, each exactly as the
 * writer would work it out (JSON texts, and what exists to be filtered or sorted on).
 */
export interface StoredColumns {
  uuid: string;
  categoryPath: string | null;
  specs: string | null;
  metadata: string | null;
  variants: string | null;
  categoryKey: string | null;
  domain: string | null;
  discountPct: number;
  /** indexedCategory(...): the category text the full-text index is given. */
  searchCategory: string;
  /** isAccessoryListing(...): search ranks it after products, best-price skips it (domain/accessory.ts). */
  accessory: boolean;
  /** createdTail(record, stored) (event-codec.ts): the created event's JSON after its id. */
  createdEventTail?: string;
  /** lineHash of the line the record came from (catalog/line-hash.ts); null when it has none. */
  lineHash?: string | null;
}

/**
 * A line the parse side found stored as it is: its hash is the one stored with listing `id`, so
 * only its observation time can be new. The writer checks the hash again at its turn; `text` is
 * the line, to be normalized after all when the listing has changed since.
 */
export interface KnownLine {
  known: true;
  line: number;
  id: number;
  hash: string;
  observedAt: string;
  /** Decoded when asked (a parse worker's line is bytes until then), and only while its batch is being written. */
  text: () => string;
}

/** What a writer would derive from a record and its matchProfile, each field exactly as it would. */
export interface PreparedRecord {
  /** The listing's UUID (a function of source and sku). */
  uuid: string;
  /** encodeProfile(matchProfile), as stored. */
  profileText: string;
  /** blockingKeys(matchProfile). */
  keys: string[];
  /** compactProfile(matchProfile). */
  compact: CompactProfile;
}

export const STOCK_STATUSES: StockStatus[] = ['in_stock', 'low_stock', 'out_of_stock', 'pre_order'];

export type IngestOutcome = 'inserted' | 'updated' | 'unchanged';
