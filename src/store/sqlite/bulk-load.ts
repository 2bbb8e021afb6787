import type { Database } from 'better-sqlite3';

/**
 * What a bulk load (`catalog import` into an empty store) builds once at its end instead of row
 * by row: kept up per row, each of these lands every insert on a random page, and together they
 * cost more than the rows; built over the loaded table, each is one sort. Migrations 1, 5 and 9 define them.
 *
 * Three indexes of `listings` stay through the load, as they cost next to nothing there: a new
 * listing is stored pending in a group of its own, numbered as the listing, so `listings_group`
 * only grows at its end; with no price history yet `history_discount_pct` is 0, which
 * `listings_deals` leaves out; and each batch stamps its listings' change time as it writes them
 * in id order, so `listings_changed` (changed_at, id) only grows at its end too. Kept, they also
 * serve a server's reads of groups and a poller's modified_since during the load.
 */
const READ_INDEXES: ReadonlyArray<readonly [name: string, on: string]> = [
  ['listings_uuid', 'listings (uuid)'],
  ['listings_updated', 'listings (updated_at DESC, id DESC)'],
  ['listings_price', 'listings (price_sgd_minor, id)'],
  ['listings_sku', 'listings (sku)'],
  ['listings_discount', 'listings (discount_pct DESC, id) WHERE discount_pct > 0'],
  ['listings_gtin', 'listings (gtin) WHERE gtin IS NOT NULL'],
  ['listings_url', 'listings (url)'],
];
/**
 * What only writers read, built after the matching: the index of blocking keys by listing (the
 * matching writes most of it), and (source, sku), which an ingest looks a record up by. Until
 * then that lookup takes `listings_sku` (a few rows per SKU), and no writer inserts a listing it
 * did not look up first, so (source, sku) stays unique without its index.
 */
const MATCH_INDEXES: ReadonlyArray<readonly [name: string, on: string]> = [
  ['block_keys_listing', 'block_keys (listing_id)'],
  ['listings_source_sku', 'listings (source, sku)'],
];
const DEFERRED_INDEXES = [...READ_INDEXES, ...MATCH_INDEXES];
/** Deferred indexes that also enforce uniqueness (migration 5 made these of the table's constraints). */
const UNIQUE = new Set(['listings_uuid', 'listings_source_sku']);
const create = (name: string, on: string) => `CREATE ${UNIQUE.has(name) ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name} ON ${on}`;
/** FTS5's default. A bulk load sets 0: one merge at its end instead of one every few batches. */
const FTS_AUTOMERGE = 4;

// FTS5 takes its commands as literals (a bound command name is a SQL logic error).
const ftsAutomerge = (db: Database, value: number) =>
  db.exec(`INSERT INTO listings_fts (listings_fts, rank) VALUES ('automerge', ${Math.trunc(value)})`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Starts a bulk load when the store holds no listing and no other load runs: drops the deferred
 * indexes, stops FTS merging, and records this process as the loader (so a crash is finished by
 * the next process that opens the store). False, and nothing changed, otherwise.
 */
export function startBulkLoad(db: Database): boolean {
  return db.transaction(() => {
    if (db.prepare('SELECT 1 FROM bulk_load').get() || db.prepare('SELECT 1 FROM listings LIMIT 1').get()) return false;
    db.prepare('INSERT INTO bulk_load (id, pid, started_at) VALUES (1, ?, ?)').run(process.pid, new Date().toISOString());
    for (const [name] of DEFERRED_INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`);
    ftsAutomerge(db, 0);
    return true;
  }).immediate();
}

/**
 * The connection's settings while it builds indexes. SQLite sorts each index's keys in runs the
 * size of its page cache, merged through temporary files, so the serving cache (128 MB) and
 * in-memory temp files of `openSqlite` make long runs of scattered memory; small runs in files
 * merge faster, on a helper thread beside this one, and the table is read through a map of the
 * file instead of copied in a page at a time, once per index.
 */
const INDEX_BUILD_SETTINGS = { cache_size: -2000, temp_store: 1, mmap_size: 2 ** 40, threads: 2 } as const;

function buildingIndexes(db: Database, build: () => void): void {
  // A load that ends early ends inside the transaction of the write that ended it, where the
  // temp store cannot change: it builds with the serving settings.
  if (db.inTransaction) return build();
  const names = Object.keys(INDEX_BUILD_SETTINGS) as Array<keyof typeof INDEX_BUILD_SETTINGS>;
  const serving = names.map((name) => [name, db.pragma(name, { simple: true })] as const);
  for (const name of names) db.pragma(`${name} = ${INDEX_BUILD_SETTINGS[name]}`);
  try {
    build();
  } finally {
    for (const [name, value] of serving) db.pragma(`${name} = ${value}`);
  }
}

/**
 * The indexes reads need, built once the listings are stored, and FTS merged: a server beside the
 * import serves from them while the stored listings are matched.
 */
export function buildReadIndexes(db: Database): void {
  buildingIndexes(db, () => db.transaction(() => {
    for (const [name, on] of READ_INDEXES) db.exec(create(name, on));
    db.exec("INSERT INTO listings_fts (listings_fts) VALUES ('optimize')");
  }).immediate());
}

/**
 * Ends a bulk load in one transaction: the staged blocking keys go into block_keys in key order
 * (appends, not random inserts), the deferred indexes are built, FTS merges its segments once.
 */
export function finishBulkLoad(db: Database): void {
  buildingIndexes(db, () => db.transaction(() => {
    db.exec('INSERT OR IGNORE INTO block_keys (key, listing_id) SELECT key, listing_id FROM block_keys_staging ORDER BY key, listing_id');
    db.exec('DELETE FROM block_keys_staging');
    for (const [name, on] of DEFERRED_INDEXES) db.exec(create(name, on));
    ftsAutomerge(db, FTS_AUTOMERGE);
    db.exec("INSERT INTO listings_fts (listings_fts) VALUES ('optimize')");
    db.exec('DELETE FROM bulk_load');
  }).immediate());
}

/** Whether a bulk load was left unfinished by a process that is gone (it crashed or was killed). */
export function interruptedBulkLoad(db: Database): boolean {
  const pid = db.prepare('SELECT pid FROM bulk_load').pluck().get() as number | undefined;
  return pid !== undefined && pid !== process.pid && !alive(pid);
}
