import { encodeProfile } from '../../domain/matching/index.js';
import type { BatchListing, BatchPlan } from './ingest-plan.js';
import type { KeyChanges } from './ingest-match.js';
import { WRITE_COLUMNS, stateValues } from './columns.js';
import { arrayLiteral, jsonRows, statement, type Db } from './sql.js';
import { withFields } from '../../domain/with-fields.js';

/**
 * A batch's writes as a few set-based statements: new listings in one INSERT and changed ones in
 * one UPDATE, each taking its rows as one JSON array of arrays (JSON.stringify is native, cheaper
 * than array literals for these wide rows, and jsonb reads no slower on the server); the rest in
 * one statement taking column arrays (`unnest`).
 */
const cols = WRITE_COLUMNS.map(([c]) => c);
/** Column i of a row `r` from jsonb_array_elements, as its type. */
const field = (i: number, type: string) => (type === 'text' ? `r->>${i}` : `(r->>${i})::${type}`);
const fields = (types: string[]) => types.map((t, i) => field(i, t)).join(', ');

const HEAD = ['id', 'uuid', 'created_at', 'changed_at', 'group_id', 'match_profile'];
const HEAD_TYPES = ['int8', 'text', 'text', 'text', 'int8', 'text'];
const WRITE_TYPES = WRITE_COLUMNS.map(([c, t]) => (c === 'tsv' ? 'tsvector' : t));
const INSERT_LISTINGS = `INSERT INTO listings (${[...HEAD, ...cols].join(', ')})
  SELECT ${fields([...HEAD_TYPES, ...WRITE_TYPES])} FROM jsonb_array_elements($1::jsonb) r`;

const UPDATE_HEAD_TYPES = ['int8', 'text', 'int8', 'bool', 'text'];
const UPDATE_LISTINGS = `UPDATE listings l SET ${cols.map((c) => `${c} = t.${c}`).join(', ')}, changed_at = t.changed_at, group_id = t.group_id,
  match_profile = CASE WHEN t.regroup THEN t.match_profile ELSE l.match_profile END
  FROM (SELECT ${fields([...UPDATE_HEAD_TYPES, ...WRITE_TYPES])} FROM jsonb_array_elements($1::jsonb) r)
    AS t(id, changed_at, group_id, regroup, match_profile, ${cols.join(', ')})
  WHERE l.id = t.id`;
// Block keys, observations, events, last_checked_at and the listing count in one statement: none
// depends on the groups, so it runs while the groups are chosen. Events are numbered in record order.
const SIDE = `WITH counted AS (UPDATE counters SET value = value + $16 WHERE name = 'listings' AND $16 > 0),
  touch AS (UPDATE listings l SET last_checked_at = t.at FROM unnest($1::int8[], $2::text[]) AS t(id, at) WHERE l.id = t.id),
  keys_gone AS (DELETE FROM block_keys b USING unnest($3::text[], $4::int8[]) AS d(key, id) WHERE b.key = d.key AND b.listing_id = d.id),
  keys_new AS (INSERT INTO block_keys (key, listing_id) SELECT * FROM unnest($5::text[], $6::int8[]) ON CONFLICT DO NOTHING),
  obs AS (INSERT INTO observations (listing_id, observed_at, price, currency, source)
    SELECT * FROM unnest($7::int8[], $8::text[], $9::text[], $10::text[], $11::text[])
    ON CONFLICT (listing_id, observed_at) DO UPDATE SET price = excluded.price, currency = excluded.currency, source = excluded.source)
  INSERT INTO events (kind, listing_id, payload, created_at)
    SELECT t.kind, t.listing_id, t.payload, t.created_at FROM unnest($12::text[], $13::int8[], $14::text[], $15::text[])
      WITH ORDINALITY AS t(kind, listing_id, payload, created_at, n) ORDER BY t.n`;

const run = (db: Db, text: string, values: unknown[]) => db.query(withFields(statement(text), { values }));

/** Rows as one array literal per column. */
function columns(rows: ReadonlyArray<readonly unknown[]>, width: number): string[] {
  const out = new Array<string>(width);
  const column = new Array<unknown>(rows.length);
  for (let c = 0; c < width; c++) {
    for (let i = 0; i < rows.length; i++) column[i] = rows[i][c];
    out[c] = arrayLiteral(column);
  }
  return out;
}

/** Everything but the listings themselves; sent before the groups are chosen. */
export function writeSide(db: Db, plan: BatchPlan, keys: KeyChanges): Promise<unknown> {
  const touched = plan.listings.filter((e) => !e.written);
  const ev = plan.events;
  return run(db, SIDE, [
    arrayLiteral(touched.map((e) => e.id)), arrayLiteral(touched.map((e) => e.state.lastCheckedAt)),
    ...columns(keys.removed, 2), ...columns(keys.added, 2), ...columns([...plan.observations.values()], 5),
    ...[ev.kinds, ev.ids, ev.payloads, ev.at].map((c) => arrayLiteral(c)), plan.inserted,
  ]);
}

/**
 * New and changed listings, with the groups `GroupAssigner.choose` gave them; `changedAt` is the
 * batch's change time by the server's clock (what modified_since reads).
 */
export async function writeListings(db: Db, listings: BatchListing[], changedAt: string): Promise<void> {
  const inserts: unknown[][] = [];
  const updates: unknown[][] = [];
  for (const e of listings) {
    if (!e.written) continue;
    const groupId = e.regroup?.groupId ?? e.groupId;
    const profile = e.regroup ? encodeProfile(e.regroup.profile) : null;
    if (e.isNew) inserts.push([e.id, e.uuid, e.createdAt, changedAt, groupId, profile, ...stateValues(e.state)]);
    else updates.push([e.id, changedAt, groupId, e.regroup !== null, profile, ...stateValues(e.state)]);
  }
  if (inserts.length) await run(db, INSERT_LISTINGS, [jsonRows(inserts)]);
  if (updates.length) await run(db, UPDATE_LISTINGS, [jsonRows(updates)]);
}
