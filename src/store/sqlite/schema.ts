/**
 * Versioned migrations of the embedded store. Each runs once, in order, inside a transaction;
 * `schema_migrations` records what ran. Append new versions; never edit a released one.
 */
export const SQLITE_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'catalog',
    sql: `
CREATE TABLE listings (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  source TEXT NOT NULL,
  sku TEXT NOT NULL,
  merchant_id TEXT,
  title TEXT NOT NULL,
  description TEXT,
  brand TEXT,
  category TEXT,
  category_path TEXT,
  category_key TEXT,
  gtin TEXT,
  mpn TEXT,
  price TEXT NOT NULL,
  currency TEXT NOT NULL,
  price_sgd TEXT,
  price_usd TEXT,
  price_sgd_minor INTEGER NOT NULL,
  original_price TEXT,
  discount_pct REAL NOT NULL DEFAULT 0,
  history_discount_pct REAL NOT NULL DEFAULT 0,
  url TEXT NOT NULL,
  domain TEXT,
  affiliate_url TEXT,
  image_url TEXT,
  rating TEXT,
  review_count INTEGER,
  region TEXT NOT NULL,
  country_code TEXT NOT NULL,
  in_stock INTEGER,
  stock_level TEXT,
  shipping_days INTEGER,
  specs TEXT,
  metadata TEXT,
  variants TEXT,
  group_id INTEGER NOT NULL,
  match_profile TEXT,
  price_trend TEXT,
  reference_price TEXT,
  last_checked_at TEXT NOT NULL,
  data_updated_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (source, sku)
);
CREATE INDEX listings_updated ON listings (updated_at DESC, id DESC);
CREATE INDEX listings_price ON listings (price_sgd_minor, id);
CREATE INDEX listings_sku ON listings (sku);
CREATE INDEX listings_group ON listings (group_id);
CREATE INDEX listings_deals ON listings (history_discount_pct DESC, id) WHERE history_discount_pct > 0;
CREATE INDEX listings_discount ON listings (discount_pct DESC, id) WHERE discount_pct > 0;
CREATE VIRTUAL TABLE listings_fts USING fts5 (
  title, brand, category, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE block_keys (key TEXT NOT NULL, listing_id INTEGER NOT NULL, PRIMARY KEY (key, listing_id)) WITHOUT ROWID;
CREATE INDEX block_keys_listing ON block_keys (listing_id);
CREATE TABLE observations (
  listing_id INTEGER NOT NULL,
  observed_at TEXT NOT NULL,
  price TEXT NOT NULL,
  currency TEXT NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (listing_id, observed_at)
) WITHOUT ROWID;
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  listing_id INTEGER NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE fx_rates (id INTEGER PRIMARY KEY CHECK (id = 1), csv TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  prefix TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  name TEXT,
  tier TEXT NOT NULL,
  pending_tier TEXT,
  pending_tier_at TEXT,
  email TEXT,
  verified INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO counters (name, value) VALUES ('listings', 0);
`,
  },
  {
    version: 2,
    name: 'accounts',
    sql: `
ALTER TABLE api_keys ADD COLUMN account_id INTEGER;
UPDATE api_keys SET account_id = id;
CREATE INDEX api_keys_prefix ON api_keys (prefix);
CREATE TABLE email_verifications (
  hash TEXT PRIMARY KEY,
  key_id INTEGER NOT NULL REFERENCES api_keys (id),
  email TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE TABLE oauth_clients (
  client_id TEXT PRIMARY KEY,
  secret_hash TEXT,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('confidential', 'public')),
  key_id INTEGER NOT NULL REFERENCES api_keys (id),
  scope TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX oauth_clients_key ON oauth_clients (key_id);
CREATE TABLE oauth_tokens (
  hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (client_id),
  key_id INTEGER NOT NULL,
  scope TEXT NOT NULL,
  issued_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);
`,
  },
  {
    version: 3,
    name: 'bulk load',
    sql: `
CREATE TABLE bulk_load (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, started_at TEXT NOT NULL);
CREATE TABLE block_keys_staging (key TEXT NOT NULL, listing_id INTEGER NOT NULL);
`,
  },
  {
    version: 4,
    name: 'key changes',
    // Every committed write to api_keys moves this count, whoever makes it (CLI, another instance).
    sql: `
INSERT INTO counters (name, value) VALUES ('api_keys', 0);
CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys BEGIN UPDATE counters SET value = value + 1 WHERE name = 'api_keys'; END;
CREATE TRIGGER api_keys_updated AFTER UPDATE ON api_keys BEGIN UPDATE counters SET value = value + 1 WHERE name = 'api_keys'; END;
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys BEGIN UPDATE counters SET value = value + 1 WHERE name = 'api_keys'; END;
`,
  },
  {
    version: 5,
    name: 'bulk load matching',
    // The uniqueness of the UUID and of (source, sku) moves from constraints of the table to named
    // indexes, so that a bulk load can build them once at its end: kept up per row, each lands
    // every insert on a random page. The table is rebuilt with the same columns, ids and indexes.
    // 'unlogged_changes' counts the bulk load's matching writes, which append no event: servers
    // watch it to drop cached answers.
    sql: `
INSERT INTO counters (name, value) VALUES ('unlogged_changes', 0);
CREATE TABLE listings_v5 (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL,
  source TEXT NOT NULL,
  sku TEXT NOT NULL,
  merchant_id TEXT,
  title TEXT NOT NULL,
  description TEXT,
  brand TEXT,
  category TEXT,
  category_path TEXT,
  category_key TEXT,
  gtin TEXT,
  mpn TEXT,
  price TEXT NOT NULL,
  currency TEXT NOT NULL,
  price_sgd TEXT,
  price_usd TEXT,
  price_sgd_minor INTEGER NOT NULL,
  original_price TEXT,
  discount_pct REAL NOT NULL DEFAULT 0,
  history_discount_pct REAL NOT NULL DEFAULT 0,
  url TEXT NOT NULL,
  domain TEXT,
  affiliate_url TEXT,
  image_url TEXT,
  rating TEXT,
  review_count INTEGER,
  region TEXT NOT NULL,
  country_code TEXT NOT NULL,
  in_stock INTEGER,
  stock_level TEXT,
  shipping_days INTEGER,
  specs TEXT,
  metadata TEXT,
  variants TEXT,
  group_id INTEGER NOT NULL,
  match_profile TEXT,
  price_trend TEXT,
  reference_price TEXT,
  last_checked_at TEXT NOT NULL,
  data_updated_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO listings_v5 (id, uuid, source, sku, merchant_id, title, description, brand, category, category_path, category_key, gtin, mpn, price, currency, price_sgd, price_usd, price_sgd_minor, original_price, discount_pct, history_discount_pct, url, domain, affiliate_url, image_url, rating, review_count, region, country_code, in_stock, stock_level, shipping_days, specs, metadata, variants, group_id, match_profile, price_trend, reference_price, last_checked_at, data_updated_at, created_at, updated_at)
  SELECT id, uuid, source, sku, merchant_id, title, description, brand, category, category_path, category_key, gtin, mpn, price, currency, price_sgd, price_usd, price_sgd_minor, original_price, discount_pct, history_discount_pct, url, domain, affiliate_url, image_url, rating, review_count, region, country_code, in_stock, stock_level, shipping_days, specs, metadata, variants, group_id, match_profile, price_trend, reference_price, last_checked_at, data_updated_at, created_at, updated_at FROM listings;
DROP TABLE listings;
ALTER TABLE listings_v5 RENAME TO listings;
CREATE UNIQUE INDEX listings_uuid ON listings (uuid);
CREATE UNIQUE INDEX listings_source_sku ON listings (source, sku);
CREATE INDEX listings_updated ON listings (updated_at DESC, id DESC);
CREATE INDEX listings_price ON listings (price_sgd_minor, id);
CREATE INDEX listings_sku ON listings (sku);
CREATE INDEX listings_group ON listings (group_id);
CREATE INDEX listings_deals ON listings (history_discount_pct DESC, id) WHERE history_discount_pct > 0;
CREATE INDEX listings_discount ON listings (discount_pct DESC, id) WHERE discount_pct > 0;
`,
  },
  {
    version: 6,
    name: 'search text in compatibility form',
    // FTS5 now indexes its columns in indexForm (NFKC), as queries and PostgreSQL see them. The
    // listings whose text that changes are indexed again; index_form is migrateSqlite's.
    sql: `
CREATE TEMP TABLE refolded AS SELECT id FROM listings
  WHERE index_form(title) IS NOT title OR index_form(brand) IS NOT brand
    OR index_form(category) IS NOT category OR index_form(category_path) IS NOT category_path;
DELETE FROM listings_fts WHERE rowid IN (SELECT id FROM refolded);
INSERT INTO listings_fts (rowid, title, brand, category)
  SELECT id, index_form(title), index_form(brand),
    index_form(coalesce((SELECT group_concat(value, ' ' ORDER BY key) FROM json_each(category_path)), category, ''))
  FROM listings WHERE id IN (SELECT id FROM refolded);
DROP TABLE refolded;
`,
  },
  {
    version: 7,
    name: 'search text with đ folded, accessory flag',
    // indexForm and slugify now fold "đ"/"Đ" to "d" (no Unicode decomposition strips the stroke, nor
    // does FTS5's remove_diacritics). Listings whose title, brand or category has one are indexed
    // again and their category key (slugs) derived again; the other listings' text is unchanged by
    // the fold. `accessory` (domain/accessory.ts) orders search and filters best-price; every
    // listing gets it. index_form, category_key_of and is_accessory are migrateSqlite's.
    sql: `
ALTER TABLE listings ADD COLUMN accessory INTEGER NOT NULL DEFAULT 0;
UPDATE listings SET accessory = 1 WHERE is_accessory(title, category_path, category);
CREATE TEMP TABLE refolded AS SELECT id FROM listings
  WHERE instr(title, 'đ') OR instr(title, 'Đ') OR instr(coalesce(brand, ''), 'đ') OR instr(coalesce(brand, ''), 'Đ')
    OR instr(coalesce(category, ''), 'đ') OR instr(coalesce(category, ''), 'Đ')
    OR instr(coalesce(category_path, ''), 'đ') OR instr(coalesce(category_path, ''), 'Đ');
UPDATE listings SET category_key = category_key_of(category_path, category) WHERE id IN (SELECT id FROM refolded);
DELETE FROM listings_fts WHERE rowid IN (SELECT id FROM refolded);
INSERT INTO listings_fts (rowid, title, brand, category)
  SELECT id, index_form(title), index_form(brand),
    index_form(coalesce((SELECT group_concat(value, ' ' ORDER BY key) FROM json_each(category_path)), category, ''))
  FROM listings WHERE id IN (SELECT id FROM refolded);
DROP TABLE refolded;
`,
  },
  {
    version: 8,
    name: 'searches and clicks',
    // Surface B's searches and followed click links, for demand signals: read per listing or per
    // query over a time window, so each is indexed by what it is read by, then time. The secret
    // that signs click links lives here when CLICK_SECRET is not set.
    sql: `
CREATE TABLE searches (
  id INTEGER PRIMARY KEY,
  key_id INTEGER NOT NULL,
  job_id TEXT,
  query TEXT NOT NULL,
  total INTEGER,
  created_at TEXT NOT NULL
);
CREATE INDEX searches_time ON searches (created_at);
CREATE INDEX searches_query ON searches (query, created_at);
CREATE INDEX searches_job ON searches (job_id, created_at) WHERE job_id IS NOT NULL;
CREATE TABLE clicks (
  id INTEGER PRIMARY KEY,
  listing_id INTEGER NOT NULL,
  key_id INTEGER NOT NULL,
  job_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX clicks_listing ON clicks (listing_id, created_at);
CREATE INDEX clicks_time ON clicks (created_at);
CREATE INDEX clicks_job ON clicks (job_id, created_at) WHERE job_id IS NOT NULL;
CREATE TABLE service_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID;
`,
  },
  {
    version: 9,
    name: 'lookup by gtin and url',
    // Bulk lookup (POST /v1/products/bulk-lookup) finds listings by GTIN and by product URL: both
    // indexed, or each reference would scan the table.
    // A bulk load builds both at its end (bulk-load.ts READ_INDEXES), with this same text.
    sql: `
CREATE INDEX listings_gtin ON listings (gtin) WHERE gtin IS NOT NULL;
CREATE INDEX listings_url ON listings (url);
`,
  },
  {
    version: 11,
    name: 'webhooks',
    // Subscriptions, the delivery outbox (leased by workers: lease_owner, lease_until) with each
    // attempt, and the dispatcher's position in the event log. A new store starts dispatching at
    // the log's head: the events before webhooks existed are not sent.
    sql: `
CREATE TABLE webhook_subscriptions (
  id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  product_ids TEXT,
  min_price_change_pct REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
  paused_reason TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until TEXT,
  from_event_id INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions (account_id, created_at);
CREATE TABLE webhook_deliveries (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  event_id INTEGER,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  next_attempt_at TEXT,
  lease_owner TEXT,
  lease_until TEXT,
  last_status_code INTEGER,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
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
) WITHOUT ROWID;
-- Which subscriptions may receive: their account's keys are looked up by account.
CREATE INDEX IF NOT EXISTS api_keys_account_id ON api_keys (account_id);
CREATE TABLE webhook_dispatch (id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER NOT NULL);
INSERT INTO webhook_dispatch (id, position) SELECT 1, coalesce(max(id), 0) FROM events;
`,
  },
  {
    version: 12,
    name: 'group offers from the group index',
    // A page's decision signals read every member of its match groups for the buy box (in stock,
    // SGD and native price, last check): with those columns in the group index that read never
    // touches a listing's row. Still ordered by group_id first, so a bulk load keeps it as before.
    sql: `
DROP INDEX IF EXISTS listings_group;
CREATE INDEX listings_group ON listings (group_id, price_sgd_minor, in_stock, currency, price, last_checked_at);
`,
  },
  {
    version: 13,
    name: 'alerts',
    // Price and stock alerts (docs/alerts.md), their firings, and the evaluator's position in the
    // event log: a new store starts at the log's head. The evaluator reads the alerts of a batch's
    // changed listings that may still fire through alerts_pending.
    sql: `
CREATE TABLE alerts (
  id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  listing_id INTEGER NOT NULL,
  condition TEXT NOT NULL,
  rearm TEXT,
  expires_at TEXT,
  state TEXT NOT NULL CHECK (state IN ('armed', 'rearming', 'fired')),
  fire_count INTEGER NOT NULL DEFAULT 0,
  last_fired_at TEXT,
  from_event_id INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX alerts_account ON alerts (account_id, created_at);
CREATE INDEX alerts_pending ON alerts (listing_id) WHERE state <> 'fired';
CREATE TABLE alert_firings (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  alert_id TEXT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  account_id INTEGER NOT NULL,
  listing_id INTEGER NOT NULL,
  trigger_event_id INTEGER NOT NULL,
  price TEXT NOT NULL,
  currency TEXT NOT NULL,
  in_stock BOOLEAN,
  fired_at TEXT NOT NULL
);
CREATE INDEX alert_firings_alert ON alert_firings (alert_id, seq);
CREATE TABLE alert_evaluation (id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER NOT NULL);
INSERT INTO alert_evaluation (id, position) SELECT 1, coalesce(max(id), 0) FROM events;
`,
  },
  {
    version: 14,
    name: 'idempotency keys',
    // One row per (credential scope, key): claimed in progress (no response yet), then the first
    // answer, replayed until it expires (24 h, purged by expires_at).
    sql: `
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT,
  status INTEGER,
  headers TEXT,
  body BLOB,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
`,
  },
  {
    version: 15,
    name: 'listing change time',
    // modified_since reads when the store wrote a change, not when the feed observed it
    // (updated_at): a late feed's change is then still after a poller's last sync. Listings
    // stored before this are taken as changed when observed. Nullable only because SQLite adds a
    // NOT NULL column with a default alone; every write sets it.
    sql: `
ALTER TABLE listings ADD COLUMN changed_at TEXT;
UPDATE listings SET changed_at = updated_at;
CREATE INDEX listings_changed ON listings (changed_at, id);
`,
  },
  {
    version: 16,
    name: 'line hashes',
    // The hash of the line each listing was last stored from (catalog/line-hash.ts): the same line
    // in a later feed is known by it without being normalized. Listings stored before have none.
    sql: `
ALTER TABLE listings ADD COLUMN line_hash TEXT;
`,
  },
  {
    version: 17,
    name: 'later checks apart',
    // A check that changes nothing else (most lines of a feed imported again) is kept here, not in
    // the listing's row: that rewrote the whole row's page, and the group index's entry. A listing's
    // last check is the later of the two (listing-reads.ts lastCheckedAt).
    sql: `
CREATE TABLE listing_checks (listing_id INTEGER PRIMARY KEY, checked_at TEXT NOT NULL);
`,
  },
];
