import type { AlertFiring, AlertRecord, Evaluation } from '../domain/alerts.js';
import type { GroupOffers } from '../domain/buybox.js';
import type { Currency } from '../domain/currencies.js';
import type { RateTable } from '../domain/fx.js';
import type { KnownLine, NormalizedRecord, IngestOutcome } from '../domain/ingest-record.js';
import type { CatalogEvent, EventKind } from '../domain/events.js';
import type { Listing, PriceObservation } from '../domain/listing.js';
import type { TermGroup } from '../domain/search-text.js';
import type { Tier } from '../domain/tier.js';
import type { PriceMove } from '../domain/trending.js';
import type { DeliveryStatus, WebhookEventKind, WebhookStatus } from '../domain/webhooks.js';

/** The most members `groupMembers` reads of one group. */
export const GROUP_MEMBERS_LIMIT = 200;

/** A listing and the size of its match group, read together. */
export interface SizedListing {
  listing: Listing;
  groupSize: number;
}

/**
 * What SKU detail lists of each member of a group (`groupMerchants`): the columns of a merchant
 * link and the cheapest-offer rule, with the accessory flag as stored; no JSON column is read.
 */
export type MerchantOffer = Pick<Listing, 'id' | 'source' | 'merchantId' | 'price' | 'currency' | 'priceSgd' | 'url' | 'affiliateUrl'
  | 'rating' | 'reviewCount' | 'inStock' | 'lastCheckedAt'> & { accessory: boolean };

export type SortKey = 'relevance' | 'price_asc' | 'price_desc' | 'newest' | 'rating' | 'reviews' | 'discount_desc' | 'deal_desc';

/** Filters shared by search, listing, export, deals and trending; every field optional. */
export interface ListingFilter {
  /** Case-insensitive partial match on the category name or any level of its path. */
  categoryLike?: string;
  /** Exact match on category name or slug of any level (the listing's category_id). */
  categoryExact?: string;
  brandLike?: string;
  brandExact?: string;
  sources?: string[];
  excludeSources?: string[];
  /** Matches on the retailer domain of the listing's URL. */
  domain?: string;
  countries?: string[];
  inStock?: boolean;
  /** Stock levels as ingested (preorder, discontinued, ...), lower case. */
  stockLevels?: string[];
  /** SGD price bounds in integer cents, inclusive. */
  minPriceSgdMinor?: number;
  maxPriceSgdMinor?: number;
  /** Discount against original_price, percent. */
  minDiscountPct?: number;
  /** Discount against the listing's own price history (reference price), percent. */
  minHistoryDiscountPct?: number;
  ids?: number[];
  /**
   * Listings the store last wrote a change to (`changed_at`, the server's clock, not the feed's
   * `updated_at`) at or after this ISO time: what a poller syncs (docs/sync.md).
   */
  modifiedSince?: string;
  /** Leaves out accessories (domain/accessory.ts: the stored `accessory` flag). */
  excludeAccessories?: boolean;
}

export interface SearchQuery {
  text?: string;
  /**
   * The text's forgiving form (`forgivingQuery`: synonyms, corrections, completions), when the
   * search is a shopper's; without it the text's words alone are matched, each exactly.
   */
  terms?: TermGroup[];
  /**
   * With `terms`: only the listings that need a correction or completion for some token (not
   * holding an exact term of every token): the second tier of a forgiving search, which the
   * catalog service ranks after the exact matches.
   */
  exceptExact?: boolean;
  filter: ListingFilter;
  sort: SortKey;
  limit: number;
  offset: number;
  /** Keyset start for deep paging by id (V2 `after`). */
  afterId?: number;
  facets?: boolean;
  /** Relevance with text only: every non-accessory before every accessory, each by rank (docs/ranking.md). */
  productsFirst?: boolean;
  /** Also count the matches by the other values a search can be filtered by (`FilterFacets`). */
  filterFacets?: boolean;
}

export interface FacetBucket { value: string; count: number }
export interface Facets {
  category: FacetBucket[];
  platform: FacetBucket[];
  brand: FacetBucket[];
  rating: FacetBucket[];
  price: Array<{ range: string; min: string | null; max: string | null; count: number }>;
}

/** The values a search's matches can be filtered by beyond `Facets`, as every store and the search index count them. */
export interface FilterFacets {
  /** Retailer domains (the `domain` filter), top `facetLimit`. */
  domain: FacetBucket[];
  /** Country codes, top `facetLimit`. */
  country: FacetBucket[];
  /**
   * How many matches each availability filter keeps: `in_stock` and `out_of_stock` by the stock
   * flag, `preorder` and `discontinued` by the stock level (so a listing may count twice); no zeros.
   */
  availability: FacetBucket[];
  /** The first match by `price_asc` and by `price_desc` (SGD price, then id); null without matches. */
  cheapestId: number | null;
  dearestId: number | null;
}

export interface SearchResult {
  listings: Listing[];
  total: number;
  facets?: Facets;
  filterFacets?: FilterFacets;
  /** Matched title with <em> markup, by listing id, when a text query was given. */
  highlights?: Record<number, string>;
}

/** A position in a keyset-ordered listing: the sort value and id of the last row served. */
export interface PageCursor { sort: PageSort; value: string | number; id: number }

/** The orders a keyset page can follow; `changed`: change time (`changed_at`) then id, both ascending (a poller's order). */
export type PageSort = 'newest' | 'price_asc' | 'price_desc' | 'changed';

export interface PageResult {
  listings: Listing[];
  total: number;
  next: PageCursor | null;
}

export interface IngestBatchResult {
  outcomes: Array<{ line: number; outcome: IngestOutcome; id: number }>;
  events: number;
}

/**
 * A store whose import can skip the lines it holds already (docs/ingest.md, "Into a store that
 * holds listings"): the parse workers read the line hashes from `file`, and `ingest` takes their
 * KnownLines among the records. It stops at a known line whose listing has changed since it was read (`stoppedAt`, its
 * index): the items before are written, that line is to be normalized, and the rest sent again.
 */
/** A batch written with known lines: `stoppedAt` is the index of the known line it stopped at, if any. */
export type KnownBatchResult = IngestBatchResult & { stoppedAt?: number };

export interface KnownLinesCapability {
  file: string;
  ingest(items: Array<NormalizedRecord | KnownLine>): Promise<KnownBatchResult>;
}

export interface CategoryCount { path: string[]; count: number }

/** A brand and how many listings carry it; spellings that differ only in (ASCII) letter case are one brand. */
export interface BrandCount { name: string; count: number }

/** The columns a listing can be looked up by besides its id (`latestBy`). */
export type LookupKey = 'uuid' | 'sku' | 'gtin' | 'url';

export interface CatalogStore {
  ingestBatch(records: NormalizedRecord[]): Promise<IngestBatchResult>;
  /** Where the store can take known lines (an embedded store in a file); absent otherwise. */
  knownLines?(): KnownLinesCapability | null;
  getById(id: number): Promise<Listing | null>;
  getByUuid(uuid: string): Promise<Listing | null>;
  /** As getById, with the size of the listing's match group read in the same statement (surface A's detail shows it). */
  getSized(id: number): Promise<SizedListing | null>;
  /** Every listing with this SKU (one per platform that uses it), most recently updated first. */
  getBySku(sku: string): Promise<Listing[]>;
  /** In the order of `ids`; absent ids are skipped. */
  getMany(ids: number[]): Promise<Listing[]>;
  /** As getMany, only what `similar` ranks candidates by: a fraction of a listing's row to read and keep. */
  titles(ids: number[]): Promise<ListingTitle[]>;
  /**
   * For each of `values`, the most recently updated listing whose `key` column is exactly that
   * text (SKUs, GTINs and URLs may be shared), keyed by the value; values no listing has are
   * absent. Batched: a few indexed reads for any number of values, never one per value.
   */
  latestBy(key: LookupKey, values: string[]): Promise<Map<string, Listing>>;
  /** The group's first GROUP_MEMBERS_LIMIT members by id: fewer is the whole group. */
  groupMembers(groupId: number): Promise<Listing[]>;
  /** The same members as groupMembers, each as a merchant offer: a fraction of its row. */
  groupMerchants(groupId: number): Promise<MerchantOffer[]>;
  search(query: SearchQuery): Promise<SearchResult>;
  /** Keyset pagination that stays correct while listings are added. */
  page(filter: ListingFilter, sort: PageSort, cursor: PageCursor | null, limit: number, offset: number): Promise<PageResult>;
  /** Streams listings in id order for export; never holds the whole result. */
  scan(filter: ListingFilter, limit: number, offset: number): AsyncIterable<Listing>;
  /** The search columns of up to `limit` listings with id > `afterId`, in id order: how a search index loads. */
  searchDocs(afterId: number, limit: number): Promise<SearchDoc[]>;
  /** Every term of the full-text index with the number of listings holding it: the vocabulary forgiving search corrects against. */
  searchTerms(): Promise<Array<[string, number]>>;
  observations(listingId: number, since: string, opts: { platform?: string; limit: number; offset: number }): Promise<{ entries: PriceObservation[]; total: number }>;
  categories(): Promise<CategoryCount[]>;
  /**
   * Every brand of the listings matching the filter, most listings first (then by name); a brand's
   * name is its most common spelling (ties: the first in code-point order). A full scan: cache it.
   */
  brandCounts(filter: ListingFilter): Promise<BrandCount[]>;
  /** A random sample of listings matching the filter (V2 explore), reproducible by seed. */
  sample(filter: ListingFilter, limit: number, seed: number): Promise<{ listings: Listing[]; total: number }>;
  count(): Promise<number>;
  /** Size and cheapest SGD price (cents) of each match group: competitor counts and buy-box prices. */
  groupStats(groupIds: number[]): Promise<Map<number, GroupStats>>;
  /** The listings matching the filter whose price changed at or after `since` (ISO), in no order: what trending ranks. */
  priceMoves(since: string, filter: ListingFilter): Promise<PriceMove[]>;
  /**
   * Each match group's size, offer count and cheapest offer, in one read for all of them: exactly
   * `groupOffersOf` (domain/buybox.ts) over its members, an offer being a listing checked at or
   * after `offeredSince` (not out of stock, priced above 0). Groups without a listing are absent.
   */
  groupOffers(groupIds: number[], offeredSince: string): Promise<Map<number, GroupOffers>>;
  /**
   * Each listing's price observations at or after `since`, preceded by its last one before `since`
   * (the price in force then), oldest first, in one read for all of them. A listing without any is absent.
   */
  observationsFor(listingIds: number[], since: string): Promise<Map<number, PriceObservation[]>>;
}

/** What a search index keeps of a listing: the text it matches and every column search filters or sorts on. */
export interface SearchDoc {
  id: number;
  title: string;
  brand: string | null;
  /** The leaf category name (the category facet). */
  category: string | null;
  /** The category path as indexed text (its JSON form: the punctuation only separates words), or the category. */
  categoryText: string;
  /** The category path's JSON text; null when the listing has none (the categories then count the category alone). */
  categoryPathText: string | null;
  /** "|name|slug|..." of every level, as `ListingFilter.categoryLike` and `categoryExact` match it. */
  categoryKey: string | null;
  source: string;
  domain: string | null;
  countryCode: string;
  inStock: boolean | null;
  /** The stock level as ingested (preorder, discontinued, ...); the availability facet reads it. */
  stockLevel: string | null;
  priceSgdMinor: number;
  discountPct: number;
  historyDiscountPct: number;
  rating: number | null;
  reviewCount: number | null;
  /** Epoch milliseconds. */
  updatedAt: number;
  /** An accessory (domain/accessory.ts). */
  accessory: boolean;
}

export type ListingTitle = Pick<Listing, 'id' | 'groupId' | 'brand' | 'title'>;

export interface GroupStats { size: number; minPriceSgdMinor: number }

export interface EventLogStore {
  /** Events with id > afterId, oldest first. */
  readAfter(afterId: number, limit: number, kinds?: EventKind[]): Promise<CatalogEvent[]>;
  lastId(): Promise<number>;
  /**
   * A count that catalog writes appending no event move (a bulk load's matching, which changes
   * groups): when it moves, answers cached from the catalog are stale. Absent where no such write exists.
   */
  unloggedChanges?(): Promise<number>;
}

export interface FxStore {
  current(): Promise<RateTable | null>;
  replace(table: RateTable): Promise<void>;
}

export interface ApiKeyRecord {
  id: number;
  /** The non-secret lookup prefix shown in listings ("ck_live_ab12cd"). */
  prefix: string;
  hash: string;
  name: string | null;
  tier: Tier;
  /** A downgrade waits for the end of the billing cycle. */
  pendingTier: Tier | null;
  pendingTierAt: string | null;
  email: string | null;
  verified: boolean;
  createdAt: string;
  revokedAt: string | null;
  /** The first key of a rotation chain: usage counters and OAuth clients follow the account, not one key. Absent = id. */
  accountId?: number;
}

export interface KeyStore {
  create(rec: Omit<ApiKeyRecord, 'id' | 'createdAt' | 'revokedAt'>, now: string): Promise<ApiKeyRecord>;
  findByHash(hash: string): Promise<ApiKeyRecord | null>;
  findById(id: number): Promise<ApiKeyRecord | null>;
  update(id: number, patch: Partial<Omit<ApiKeyRecord, 'id'>>): Promise<void>;
  /** A count every committed write to any key moves, whoever writes (another instance, the CLI). */
  changeCount(): Promise<number>;
}

/** What ending a bulk load did, for the import summary. */
export interface BulkFinish {
  /** Building the indexes reads need (then the stored listings are served as usual). */
  readIndexMs: number;
  /** Listings matched after they were stored (0 when no bulk load ran). */
  grouped: number;
  groupMs: number;
  /** Building the indexes of what matching wrote. */
  indexMs: number;
  /** When the matching stopped working from memory before its end, how many it had matched by then, and why. */
  endedEarly?: { fromMemory: number; because: 'another writer' | 'heap limit' };
}

/** A store that can take a large import into an empty catalog faster than row by row. */
export interface BulkLoadCapability {
  /** Starts a long import session (bulk or not): its connection settings and, for a file, WAL checkpoints off the writer's thread, until the store closes. */
  startImport(): void;
  /** Starts a bulk load when the catalog holds no listing; false otherwise. */
  start(): boolean;
  /** Ends it: what it stored matched, its indexes built. */
  finish(opts?: { onGrouped?: (grouped: number) => void }): Promise<BulkFinish>;
}

/** What recovery is doing, for logs and /health. */
export type RecoveryProgress = { phase: 'indexes' } | { phase: 'matching'; done: number; total: number };

export interface RecoveryCapability {
  /** Whether the store was left half-written and needs run() before it is usable. */
  needed(): boolean;
  /** Finishes what was left, reporting progress; a no-op when nothing was. */
  run(report?: (p: RecoveryProgress) => void): Promise<void>;
}

/** The clock a store stamps listing change times (`changed_at`) with; the wall clock when not given. */
export interface StoreClock { now?: () => Date }

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Present where the adapter has a faster path for a first large import. */
  readonly bulkLoad?: BulkLoadCapability;
  /** Present where a store can be left half-written (a killed bulk load) and must be finished before use. */
  readonly recovery?: RecoveryCapability;
  readonly catalog: CatalogStore;
  readonly events: EventLogStore;
  readonly fx: FxStore;
  readonly keys: KeyStore;
  readonly accounts: AccountStore;
  readonly oauth: OAuthStore;
  readonly activity: ActivityStore;
  readonly webhooks: WebhookStore;
  readonly idempotency: IdempotencyStore;
  readonly alerts: AlertStore;
  /** Applies pending schema migrations; safe to call on every start. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** Fields of a new key; the store assigns id, createdAt, revokedAt (null) and accountId (= id). */
export type NewApiKey = Omit<ApiKeyRecord, 'id' | 'createdAt' | 'revokedAt' | 'accountId'>;

export interface VerificationRecord {
  /** SHA-256 of the emailed token; the token itself is never stored. */
  hash: string;
  keyId: number;
  email: string;
  expiresAt: string;
}

/** Registration, rotation and lookup by prefix; small on purpose so every adapter stays plain. */
export interface AccountStore {
  /**
   * In one transaction: revoke `oldId` if it is still active, insert `next` in the same account
   * (accountId of the old key), and move the old key's OAuth clients to the new key.
   * Null when the old key was already revoked (a concurrent rotation won).
   */
  rotateKey(oldId: number, next: NewApiKey, now: string): Promise<ApiKeyRecord | null>;
  /** Keys whose prefix is exactly `prefix`, active or not. */
  findByPrefix(prefix: string): Promise<ApiKeyRecord[]>;
  createVerification(rec: VerificationRecord): Promise<void>;
  /** Deletes and returns the record: a token verifies once. Expired records are returned too (the caller decides). */
  takeVerification(hash: string): Promise<VerificationRecord | null>;
}

export type OAuthClientType = 'confidential' | 'public';

export interface OAuthClientRecord {
  clientId: string;
  /** SHA-256 of the secret; null for public clients. */
  secretHash: string | null;
  name: string;
  type: OAuthClientType;
  /** The key whose tier and limits the client's tokens inherit. */
  keyId: number;
  /** Space-separated scopes the client may request. */
  scope: string;
  createdAt: string;
}

export interface AccessTokenRecord {
  /** SHA-256 of the opaque token. */
  hash: string;
  clientId: string;
  keyId: number;
  scope: string;
  issuedAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export interface OAuthStore {
  createClient(rec: OAuthClientRecord): Promise<void>;
  findClient(clientId: string): Promise<OAuthClientRecord | null>;
  createToken(rec: AccessTokenRecord): Promise<void>;
  findToken(hash: string): Promise<AccessTokenRecord | null>;
  revokeToken(hash: string, now: string): Promise<void>;
  /** Deletes tokens that expired before `now`; returns how many. */
  purgeExpiredTokens(now: string): Promise<number>;
}

/** A surface B search as it was asked (spec 4.3 `shopping_job_id`): demand signals read these. */
export interface SearchRecord {
  keyId: number;
  /** The caller's shopping job, when a valid one was sent. */
  jobId: string | null;
  /** The keywords (`q`) as given. */
  query: string;
  /** How many listings matched (null when unknown). */
  total: number | null;
  at: string;
}

/** A followed tracked link (`click_url`): which listing, shown to which key, for which job. */
export interface ClickRecord {
  listingId: number;
  keyId: number;
  jobId: string | null;
  at: string;
}

/** What shoppers did with the answers: searches asked and links followed. Append-only, read by time window. */
export interface ActivityStore {
  /** Appends in one transaction. */
  recordSearches(rows: SearchRecord[]): Promise<void>;
  recordClicks(rows: ClickRecord[]): Promise<void>;
  /** Searches at or after `since`, newest first; only a job's when `jobId` is given. */
  searches(since: string, opts: { jobId?: string; limit: number }): Promise<SearchRecord[]>;
  /** Clicks on one listing at or after `since`, newest first. */
  clicksFor(listingId: number, since: string, limit: number): Promise<ClickRecord[]>;
  /** Clicks per listing at or after `since`; a listing without any is absent. */
  clickCounts(listingIds: number[], since: string): Promise<Map<number, number>>;
  /**
   * The secret that signs click links: the stored one, or `candidate` stored when there is none
   * (the first instance to ask wins; every instance on the store then signs alike).
   */
  clickSecret(candidate: string): Promise<string>;
}

export type { Currency };

export interface WebhookSubscriptionRecord {
  /** A UUID. */
  id: string;
  /** The account (first key of a rotation chain): subscriptions survive key rotation. */
  accountId: number;
  url: string;
  events: WebhookEventKind[];
  /** Listing UUIDs; null: every product. */
  productIds: string[] | null;
  minPriceChangePct: number;
  status: WebhookStatus;
  /** Why it is paused (receiver_gone, paused_by_owner); null when active. */
  pausedReason: string | null;
  /** The signing secret as stored (sealed when a secret key is configured). */
  secret: string;
  /** The secret before the last rotation, also signed with until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: string | null;
  /** The event log's last id when the subscription was made: older events are never sent to it. */
  fromEventId: number;
  createdAt: string;
  updatedAt: string;
}

export type SubscriptionPatch = Partial<Pick<WebhookSubscriptionRecord,
  'url' | 'events' | 'productIds' | 'minPriceChangePct' | 'status' | 'pausedReason' | 'secret' | 'previousSecret' | 'previousSecretUntil'>>;

export interface WebhookDeliveryRecord {
  /** `msg_...`: the webhook-id header of every attempt. */
  id: string;
  subscriptionId: string;
  /** The event log id; null for a test delivery. */
  eventId: number | null;
  kind: string;
  /** The JSON body, fixed when queued. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookAttemptRecord {
  deliveryId: string;
  /** 1-based. */
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** The first characters of the receiver's answer. */
  excerpt: string | null;
}

export interface NewDelivery {
  id: string;
  subscriptionId: string;
  eventId: number | null;
  kind: string;
  payload: string;
  maxAttempts: number;
}

export interface ClaimedDelivery {
  delivery: WebhookDeliveryRecord;
  subscription: WebhookSubscriptionRecord;
}

/** What one attempt changed: the delivery's new state and, on 410 Gone, the subscription paused. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  pause: string | null;
}

/**
 * Subscriptions and the delivery outbox. Deliveries are claimed with a lease (owner, until): a
 * claim takes only due, unleased (or lease-expired) deliveries of active subscriptions, and on
 * many instances two claims never take one delivery (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite:
 * one UPDATE ... RETURNING under its write lock).
 */
export interface WebhookStore {
  /** Inserts unless the account already has `maxPerAccount`; false then. */
  createSubscription(rec: WebhookSubscriptionRecord, maxPerAccount: number): Promise<boolean>;
  subscription(accountId: number, id: string): Promise<WebhookSubscriptionRecord | null>;
  /** The account's subscriptions, oldest first. */
  subscriptions(accountId: number): Promise<WebhookSubscriptionRecord[]>;
  /** Null when the account has no such subscription. */
  updateSubscription(accountId: number, id: string, patch: SubscriptionPatch, now: string): Promise<WebhookSubscriptionRecord | null>;
  /** Deletes it and its deliveries; false when the account has no such subscription. */
  deleteSubscription(accountId: number, id: string): Promise<boolean>;
  /** Active subscriptions of accounts that hold an active key of one of `tiers`. */
  activeSubscriptions(tiers: readonly Tier[]): Promise<WebhookSubscriptionRecord[]>;
  /** The last event id the dispatcher has turned into deliveries. */
  dispatchPosition(): Promise<number>;
  /**
   * Queues the deliveries of the events after `from` up to `to` and moves the position to `to`, in
   * one transaction, only when the position is still `from`: false (nothing queued) when another
   * dispatcher moved it first (or, on SQLite, when another process held the write lock too long:
   * the position is then unchanged). A delivery of an event a subscription already has is skipped.
   */
  enqueue(from: number, to: number, deliveries: NewDelivery[], now: string): Promise<boolean>;
  /** Queues one delivery outside the event flow (a test), leased to `lease.owner` so that the caller sends it. */
  insertLeased(d: NewDelivery, lease: { owner: string; until: string }, now: string): Promise<WebhookDeliveryRecord>;
  /** Leases up to `limit` due deliveries of active subscriptions, oldest due first, skipping `exclude`d subscriptions (none when the store is busy). */
  claim(owner: string, leaseUntil: string, now: string, limit: number, exclude: readonly string[]): Promise<ClaimedDelivery[]>;
  /** Records an attempt of a delivery `owner` leases and applies its outcome; false (nothing written) when the lease was lost. */
  record(deliveryId: string, owner: string, attempt: Omit<WebhookAttemptRecord, 'deliveryId' | 'attempt'>, outcome: AttemptOutcome, now: string): Promise<boolean>;
  /** Gives back every lease of `owner` (a stopping worker), so its deliveries are due again at once. */
  release(owner: string): Promise<number>;
  deliveries(subscriptionId: string, opts: { status?: DeliveryStatus; limit: number; offset: number }): Promise<{ items: WebhookDeliveryRecord[]; total: number }>;
  delivery(subscriptionId: string, deliveryId: string): Promise<WebhookDeliveryRecord | null>;
  /** The attempts of these deliveries, in attempt order. */
  attempts(deliveryIds: readonly string[]): Promise<WebhookAttemptRecord[]>;
  /** Queues a finished (succeeded or dead) delivery for one more attempt at `now`; null when absent or still pending. */
  retry(subscriptionId: string, deliveryId: string, now: string): Promise<WebhookDeliveryRecord | null>;
  /** Deletes finished deliveries last changed before `before`; returns how many. */
  prune(before: string): Promise<number>;
}

/** The answer a request with an `Idempotency-Key` gave, kept to be given again to a retry. */
export interface StoredResponse {
  status: number;
  /** The headers a replay repeats (content type, location, cache control), lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface IdempotencyRecord {
  /** Whose key it is: one credential's keys never meet another's. */
  scope: string;
  key: string;
  /** Hash of method, path, credential and body; null while a streamed body is still being read. */
  fingerprint: string | null;
  /** Null while the first request is still running. */
  response: StoredResponse | null;
  createdAt: string;
  expiresAt: string;
}

/** Idempotency keys (http/idempotency.ts): claimed when a request starts, completed with its answer. */
export interface IdempotencyStore {
  /**
   * Claims (scope, key) for a new request unless an unexpired record holds it (an expired one is
   * replaced): null when claimed, else the record that holds it. Atomic across instances.
   */
  claim(rec: Omit<IdempotencyRecord, 'response'>, now: string): Promise<IdempotencyRecord | null>;
  /** Stores the answer of a claimed key, with the fingerprint known by then. */
  complete(scope: string, key: string, fingerprint: string, response: StoredResponse): Promise<void>;
  /** Gives a claim back (the request failed on the server's side or was cut off): a retry runs again. */
  release(scope: string, key: string): Promise<void>;
  /** Deletes the records that expired at or before `now`; returns how many. */
  purge(now: string): Promise<number>;
}

/**
 * Price and stock alerts, their firings, and the evaluator's position in the event log. Every
 * call but the evaluator's is scoped to one account: another account's alert is not found.
 */
export interface AlertStore {
  /** Inserts unless the account already has `maxActive` active alerts (armed or re-arming, not expired at `now`); false then. */
  create(rec: AlertRecord, maxActive: number, now: string): Promise<boolean>;
  get(accountId: number, id: string): Promise<AlertRecord | null>;
  /** The account's alerts, newest first. */
  list(accountId: number, opts: { limit: number; offset: number }): Promise<{ items: AlertRecord[]; total: number }>;
  /** Active alerts of the account at `now` (what the tier limit counts). */
  activeCount(accountId: number, now: string): Promise<number>;
  /** Deletes it and its firings; false when the account has no such alert. */
  delete(accountId: number, id: string): Promise<boolean>;
  /** The firings of one of the account's alerts, newest first; null when the account has no such alert. */
  firings(accountId: number, alertId: string, opts: { limit: number; offset: number }): Promise<{ items: AlertFiring[]; total: number } | null>;
  /** The alerts on these listings that may still fire or re-arm (not fired for good, not expired at `at`): one indexed read. */
  pendingFor(listingIds: readonly number[], at: string): Promise<AlertRecord[]>;
  /** The last event id the evaluator has read past. */
  evaluationPosition(): Promise<number>;
  /**
   * In one transaction, only when the position is still `from`: appends each firing to the history
   * and its alert_fired event to the event log (in commit order with the ingest writers), writes
   * the alerts' new states, and moves the position to `to`. False (nothing written) otherwise.
   */
  apply(from: number, to: number, evaluation: Evaluation, now: string): Promise<boolean>;
}
