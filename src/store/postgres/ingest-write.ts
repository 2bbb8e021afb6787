import type { BatchPlan } from './ingest-plan.js';
import type { KeyChanges } from './ingest-match.js';
import { WRITE_COLUMNS, stateValues, writeExpr } from './columns.js';
import { statement, type Db } from './sql.js';

/**
 * A batch's writes as a few set-based statements, each taking column arrays (`unnest`): one
 * INSERT for new listings, one UPDATE for changed ones, one for those only checked again, then
 * block keys, observations and events (in record order, so their ids follow it).
 */
const cols = WRITE_COLUMNS.map(([c]) => c);
const arrays = (first: number, types: string[]) => types.map((t, i) => `$${first + i}::${t}[]`).join(', ');

const HEAD = ['id', 'uuid', 'created_at', 'group_id', 'match_profile'];
const HEAD_TYPES = ['int8', 'text', 'text', 'int8', 'text'];
const INSERT_LISTINGS = `INSERT INTO listings (${[...HEAD, ...cols].join(', ')})
  SELECT ${[...HEAD.map((c) => `t.${c}`), ...cols.map(writeExpr)].join(', ')}
  FROM unnest(${arrays(1, [...HEAD_TYPES, ...WRITE_COLUMNS.map(([, t]) => t)])}) AS t(${[...HEAD, ...cols].join(', ')})`;

const UPDATE_HEAD = ['id', 'group_id', 'regroup', 'match_profile'];
const UPDATE_LISTINGS = `UPDATE listings l SET ${cols.map((c) => `${c} = ${writeExpr(c)}`).join(', ')}, group_id = t.group_id,
  match_profile = CASE WHEN t.regroup THEN t.match_profile ELSE l.match_profile END
  FROM unnest(${arrays(1, ['int8', 'int8', 'bool', 'text', ...WRITE_COLUMNS.map(([, t]) => t)])}) AS t(${[...UPDATE_HEAD, ...cols].join(', ')})
  WHERE l.id = t.id`;
const TOUCH = 'UPDATE listings l SET last_checked_at = t.at FROM unnest($1::int8[], $2::text[]) AS t(id, at) WHERE l.id = t.id';
const KEYS_DELETE = `DELETE FROM block_keys b USING unnest($1::text[], $2::int8[]) AS d(key, id) WHERE b.key = d.key AND b.listing_id = d.id`;
const KEYS_INSERT = 'INSERT INTO block_keys (key, listing_id) SELECT * FROM unnest($1::text[], $2::int8[]) ON CONFLICT DO NOTHING';
const OBSERVATIONS = `INSERT INTO observations (listing_id, observed_at, price, currency, source)
  SELECT * FROM unnest($1::int8[], $2::text[], $3::text[], $4::text[], $5::text[])
  ON CONFLICT (listing_id, observed_at) DO UPDATE SET price = excluded.price, currency = excluded.currency, source = excluded.source`;
const EVENTS = `INSERT INTO events (kind, listing_id, payload, created_at)
  SELECT t.kind, t.listing_id, t.payload, t.created_at FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[])
    WITH ORDINALITY AS t(kind, listing_id, payload, created_at, n) ORDER BY t.n`;

/** Row-major values to column arrays. */
function columns(rows: unknown[][], width: number): unknown[][] {
  const out = Array.from({ length: width }, () => new Array<unknown>(rows.length));
  rows.forEach((row, i) => {
    for (let c = 0; c < width; c++) out[c][i] = row[c];
  });
  return out;
}

const run = (db: Db, text: string, values: unknown[]) => db.query({ ...statement(text), values });

export async function writeBatch(db: Db, plan: BatchPlan, keys: KeyChanges): Promise<void> {
  const inserts: unknown[][] = [];
  const updates: unknown[][] = [];
  const touched: [number[], string[]] = [[], []];
  for (const e of plan.listings) {
    const l = e.listing;
    const groupId = e.regroup?.groupId ?? l.groupId;
    const profile = e.regroup ? JSON.stringify(e.regroup.profile) : null;
    if (e.isNew) inserts.push([l.id, l.uuid, l.createdAt, groupId, profile, ...stateValues(l)]);
    else if (e.written) updates.push([l.id, groupId, e.regroup !== null, profile, ...stateValues(l)]);
    else {
      touched[0].push(l.id);
      touched[1].push(l.lastCheckedAt);
    }
  }
  const width = WRITE_COLUMNS.length;
  if (inserts.length) await run(db, INSERT_LISTINGS, columns(inserts, HEAD.length + width));
  if (updates.length) await run(db, UPDATE_LISTINGS, columns(updates, UPDATE_HEAD.length + width));
  if (touched[0].length) await run(db, TOUCH, touched);
  if (keys.removed.length) await run(db, KEYS_DELETE, columns(keys.removed, 2));
  if (keys.added.length) await run(db, KEYS_INSERT, columns(keys.added, 2));
  if (plan.observations.size) await run(db, OBSERVATIONS, columns([...plan.observations.values()], 5));
  const ev = plan.events;
  if (ev.kinds.length) await run(db, EVENTS, [ev.kinds, ev.ids, ev.payloads, ev.at]);
}
