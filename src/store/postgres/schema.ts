import type pg from 'pg';
import { flagAccessories, refoldStrokedD } from './rederive.js';

/**
 * Versioned migrations of the PostgreSQL store, numbered like the SQLite ones so one version
 * means one schema whatever the store. Each runs once, in order, in a transaction holding an
 * advisory lock, so instances starting together never apply one twice. Append; never edit a
 * released one. `run`, when a migration has one, runs after its SQL in the same transaction: what
 * the code derives (search terms, category keys) is derived again by the code itself.
 *
 * Times stay ISO-8601 text and prices exact decimal text, as on SQLite: rows round-trip
 * unchanged and sort the same (the C collation compares them as SQLite does).
 */
export const PG_MIGRATIONS: Array<{ version: number; name: string; sql: string; run?: (db: pg.PoolClient) => Promise<void> }> = [
  {
    version: 1,
    name: 'catalog',
    sql: `
CREATE TABLE listings (
  id BIGSERIAL PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  source TEXT COLLATE "C" NOT NULL,
  sku TEXT COLLATE "C" NOT NULL,
  merchant_id TEXT,
  title TEXT NOT NULL,
  description TEXT,
  brand TEXT COLLATE "C",
  category TEXT COLLATE "C",
  category_path TEXT COLLATE "C",
  category_key TEXT,
  gtin TEXT,
  mpn TEXT,
  price TEXT NOT NULL,
  currency TEXT NOT NULL,
  price_sgd TEXT,
  price_usd TEXT,
  price_sgd_minor BIGINT NOT NULL,
  original_price TEXT,
  discount_pct DOUBLE PRECISION NOT NULL DEFAULT 0,
  history_discount_pct DOUBLE PRECISION NOT NULL DEFAULT 0,
  url TEXT NOT NULL,
  domain TEXT,
  affiliate_url TEXT,
  image_url TEXT,
  rating TEXT,
  review_count INTEGER,
  region TEXT NOT NULL,
  country_code TEXT NOT NULL,
  in_stock SMALLINT,
  stock_level TEXT,
  shipping_days INTEGER,
  specs TEXT,
  metadata TEXT,
  variants TEXT,
  group_id BIGINT NOT NULL,
  match_profile TEXT,
  price_trend TEXT,
  reference_price TEXT,
  last_checked_at TEXT COLLATE "C" NOT NULL,
  data_updated_at TEXT COLLATE "C" NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL,
  -- title (A), brand (B), category path (C); written by the adapter's own tokenizer (text-search.ts)
  tsv TSVECTOR NOT NULL DEFAULT ''::tsvector,
  UNIQUE (source, sku)
);
CREATE INDEX listings_updated ON listings (updated_at DESC, id DESC);
CREATE INDEX listings_price ON listings (price_sgd_minor, id);
CREATE INDEX listings_sku ON listings (sku);
CREATE INDEX listings_group ON listings (group_id);
CREATE INDEX listings_deals ON listings (history_discount_pct DESC, id) WHERE history_discount_pct > 0;
CREATE INDEX listings_discount ON listings (discount_pct DESC, id) WHERE discount_pct > 0;
CREATE INDEX listings_tsv ON listings USING GIN (tsv);
-- partial-match filters (LIKE '%x%') on category names and brands
CREATE INDEX listings_category_trgm ON listings USING GIN (category_key gin_trgm_ops);
CREATE INDEX listings_brand_trgm ON listings USING GIN (lower(brand) gin_trgm_ops);
CREATE TABLE block_keys (key TEXT COLLATE "C" NOT NULL, listing_id BIGINT NOT NULL, PRIMARY KEY (key, listing_id));
CREATE INDEX block_keys_listing ON block_keys (listing_id);
CREATE TABLE observations (
  listing_id BIGINT NOT NULL,
  observed_at TEXT COLLATE "C" NOT NULL,
  price TEXT NOT NULL,
  currency TEXT NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (listing_id, observed_at)
);
CREATE TABLE events (
  id BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  listing_id BIGINT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE fx_rates (id INTEGER PRIMARY KEY CHECK (id = 1), csv TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE api_keys (
  id BIGSERIAL PRIMARY KEY,
  prefix TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  name TEXT,
  tier TEXT NOT NULL,
  pending_tier TEXT,
  pending_tier_at TEXT,
  email TEXT,
  verified BOOLEAN NOT NULL DEFAULT FALSE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO counters (name, value) VALUES ('listings', 0);
`,
  },
  {
    version: 2,
    name: 'accounts',
    sql: `
ALTER TABLE api_keys ADD COLUMN account_id BIGINT;
UPDATE api_keys SET account_id = id;
CREATE INDEX api_keys_prefix ON api_keys (prefix);
CREATE TABLE email_verifications (
  hash TEXT PRIMARY KEY,
  key_id BIGINT NOT NULL REFERENCES api_keys (id),
  email TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE TABLE oauth_clients (
  client_id TEXT PRIMARY KEY,
  secret_hash TEXT,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('confidential', 'public')),
  key_id BIGINT NOT NULL REFERENCES api_keys (id),
  scope TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX oauth_clients_key ON oauth_clients (key_id);
CREATE TABLE oauth_tokens (
  hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (client_id),
  key_id BIGINT NOT NULL,
  scope TEXT NOT NULL,
  issued_at TEXT NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  revoked_at TEXT
);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);
`,
  },
  {
    version: 3,
    name: 'bulk load',
    // SQLite's bulk loader keeps its state in tables; PostgreSQL has no bulk loader. Kept so one
    // version number means one schema on both stores.
    sql: 'SELECT 1',
  },
  {
    version: 4,
    name: 'key changes',
    // Every committed write to api_keys moves this count, whoever makes it (CLI, another instance);
    // instances remember keys only while it stays put (KeyService.cacheWhileUnchanged).
    sql: `
INSERT INTO counters (name, value) VALUES ('api_keys', 0);
CREATE FUNCTION count_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE counters SET value = value + 1 WHERE name = 'api_keys';
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_changed AFTER INSERT OR UPDATE OR DELETE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION count_key_change();
`,
  },
  {
    version: 5,
    name: 'bulk load matching',
    // SQLite's listing table was rebuilt so its bulk loader can defer the UUID index, and counts the
    // loader's matching writes; PostgreSQL has no bulk loader and needs neither. Kept so one version
    // number means one schema on both stores.
    sql: 'SELECT 1',
  },
  {
    version: 6,
    name: 'search text with đ folded, accessory flag',
    // The search terms and category slugs now fold "đ"/"Đ" to "d" (see SQLite migration 7): the
    // listings whose text has one are derived again. `accessory` (domain/accessory.ts) orders search
    // and filters best-price: every listing is flagged by the code (rederive.ts).
    sql: 'ALTER TABLE listings ADD COLUMN accessory SMALLINT NOT NULL DEFAULT 0',
    run: async (db) => {
      await refoldStrokedD(db);
      await flagAccessories(db);
    },
  },
  {
    version: 7,
    name: 'searches and clicks',
    // As SQLite's version 8: searches and followed click links, indexed by what demand signals read
    // them by (listing, query, job), then time; and the stored click secret.
    sql: `
CREATE TABLE searches (
  id BIGSERIAL PRIMARY KEY,
  key_id BIGINT NOT NULL,
  job_id TEXT COLLATE "C",
  query TEXT COLLATE "C" NOT NULL,
  total INTEGER,
  created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX searches_time ON searches (created_at);
CREATE INDEX searches_query ON searches (query, created_at);
CREATE INDEX searches_job ON searches (job_id, created_at) WHERE job_id IS NOT NULL;
CREATE TABLE clicks (
  id BIGSERIAL PRIMARY KEY,
  listing_id BIGINT NOT NULL,
  key_id BIGINT NOT NULL,
  job_id TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX clicks_listing ON clicks (listing_id, created_at);
CREATE INDEX clicks_time ON clicks (created_at);
CREATE INDEX clicks_job ON clicks (job_id, created_at) WHERE job_id IS NOT NULL;
CREATE TABLE service_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at TEXT NOT NULL);
`,
  },
  {
    version: 8,
    name: 'lookup by gtin and url',
    // Bulk lookup (POST /v1/products/bulk-lookup) finds listings by GTIN and by product URL: both
    // indexed, or each reference would scan the table.
    sql: `
CREATE INDEX listings_gtin ON listings (gtin) WHERE gtin IS NOT NULL;
CREATE INDEX listings_url ON listings (url);
`,
  },
  {
    version: 10,
    name: 'webhooks',
    // Subscriptions, the delivery outbox (claimed by workers with FOR UPDATE SKIP LOCKED and a
    // lease: lease_owner, lease_until) with each attempt, and the dispatcher's position in the
    // event log, which a new store starts at the log's head. SQLite's version of these tables is
    // its migration 11.
    sql: `
CREATE TABLE webhook_subscriptions (
  id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  product_ids TEXT,
  min_price_change_pct DOUBLE PRECISION NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
  paused_reason TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until TEXT,
  from_event_id BIGINT NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions (account_id, created_at);
CREATE TABLE webhook_deliveries (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  event_id BIGINT,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  next_attempt_at TEXT COLLATE "C",
  lease_owner TEXT,
  lease_until TEXT COLLATE "C",
  last_status_code INTEGER,
  last_error TEXT,
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL,
  UNIQUE (subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, seq, subscription_id, lease_until) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, status, seq);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status <> 'pending';
CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  excerpt TEXT,
  PRIMARY KEY (delivery_id, attempt)
);
-- Which subscriptions may receive: their account's keys are looked up by account.
CREATE INDEX IF NOT EXISTS api_keys_account_id ON api_keys (account_id);
CREATE TABLE webhook_dispatch (id INTEGER PRIMARY KEY CHECK (id = 1), position BIGINT NOT NULL);
INSERT INTO webhook_dispatch (id, position) SELECT 1, coalesce(max(id), 0) FROM events;
`,
  },
  {
    version: 13,
    name: 'alerts',
    // As SQLite's version 13: alerts, their firings and the evaluator's position in the event log.
    sql: `
CREATE TABLE alerts (
  id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL,
  listing_id BIGINT NOT NULL,
  condition TEXT NOT NULL,
  rearm TEXT,
  expires_at TEXT COLLATE "C",
  state TEXT NOT NULL CHECK (state IN ('armed', 'rearming', 'fired')),
  fire_count INTEGER NOT NULL DEFAULT 0,
  last_fired_at TEXT COLLATE "C",
  from_event_id BIGINT NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX alerts_account ON alerts (account_id, created_at);
CREATE INDEX alerts_pending ON alerts (listing_id) WHERE state <> 'fired';
CREATE TABLE alert_firings (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  alert_id TEXT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  account_id BIGINT NOT NULL,
  listing_id BIGINT NOT NULL,
  trigger_event_id BIGINT NOT NULL,
  price TEXT NOT NULL,
  currency TEXT NOT NULL,
  in_stock BOOLEAN,
  fired_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX alert_firings_alert ON alert_firings (alert_id, seq);
CREATE TABLE alert_evaluation (id INTEGER PRIMARY KEY CHECK (id = 1), position BIGINT NOT NULL);
INSERT INTO alert_evaluation (id, position) SELECT 1, coalesce(max(id), 0) FROM events;
`,
  },
  {
    version: 14,
    name: 'idempotency keys',
    // As on SQLite: one row per (credential scope, key), in progress until its answer is stored.
    sql: `
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT,
  status INTEGER,
  headers TEXT,
  body BYTEA,
  created_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
`,
  },
  {
    version: 15,
    name: 'listing change time',
    // As on SQLite: when the store wrote a listing's change, which modified_since reads; the
    // listings already stored are taken as changed when observed.
    sql: `
ALTER TABLE listings ADD COLUMN changed_at TEXT COLLATE "C";
UPDATE listings SET changed_at = updated_at;
ALTER TABLE listings ALTER COLUMN changed_at SET NOT NULL;
CREATE INDEX listings_changed ON listings (changed_at, id);
`,
  },
];
