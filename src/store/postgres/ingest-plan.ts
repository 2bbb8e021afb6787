import { planIngest, type ListingState } from '../../domain/ingest-rules.js';
import type { NormalizedRecord } from '../../domain/ingest-record.js';
import type { Listing } from '../../domain/listing.js';
import { profileOfListing } from '../../domain/listing-profile.js';
import { blockingKeys } from '../../domain/matching/index.js';
import { listingUuid } from '../../domain/listing-id.js';
import { toListing } from '../sql/listing-row.js';
import type { IngestBatchResult } from '../types.js';
import { stateRow } from './columns.js';
import type { RegroupOp } from './ingest-match.js';

const HISTORY_WINDOW_MS = 90 * 86400_000;

export const keyOf = (source: string, sku: string) => `${source}\u0000${sku}`;

/** The start of the 90 days of prices before `at`. */
export const sinceOf = (at: string) => new Date(new Date(at).getTime() - HISTORY_WINDOW_MS).toISOString();

/** What the table held when the batch began, read for the whole batch at once. */
export interface BatchStart {
  /** Listings of the batch's (source, sku) pairs, by `keyOf`. */
  existing: Map<string, Listing>;
  /** Observations since the batch's oldest record less 90 days, oldest first, of listings whose price may change. */
  history: Map<number, Array<{ at: string; price: string }>>;
  /** Ids reserved for the batch's new listings, ascending: handed out in record order. */
  newIds: number[];
}

/** A listing the batch writes, as it stands after the batch. */
export interface BatchListing {
  id: number;
  uuid: string;
  createdAt: string;
  /** Its group before any regroup of this batch. */
  groupId: number;
  state: ListingState;
  /** `state` as a later record of the batch sees it: as if written and read back. Built when needed. */
  read: Listing | null;
  isNew: boolean;
  /** Its whole state is written; otherwise only last_checked_at moved. */
  written: boolean;
  /** Its last regroup in this batch, whose group and profile are written, and that op's index in `regroups`. */
  regroup: RegroupOp | null;
  lastOp: number;
}

export interface BatchPlan {
  listings: BatchListing[];
  /** In record order. */
  regroups: RegroupOp[];
  /** Upserts by (listing, observed_at): the last one of a pair wins, as consecutive upserts would. */
  observations: Map<string, [id: number, at: string, price: string, currency: string, source: string]>;
  events: { kinds: string[]; ids: number[]; payloads: string[]; at: string[] };
  result: IngestBatchResult;
  inserted: number;
}

/**
 * Decides every record of a batch in order, in memory: planIngest against the listing as the
 * records before it left it (a listing seen twice sees its first record's write), observations
 * and events as they would be appended, and the listings whose group must be chosen again.
 * Nothing is written here; the batch is then written with a few set-based statements.
 */
export function planBatch(records: NormalizedRecord[], start: BatchStart): BatchPlan {
  const byKey = new Map<string, BatchListing>();
  const added = new Map<number, Map<string, string>>();
  const plan: BatchPlan = {
    listings: [], regroups: [], observations: new Map(), events: { kinds: [], ids: [], payloads: [], at: [] },
    result: { outcomes: [], events: 0 }, inserted: 0,
  };
  let nextNew = 0;

  /** Prices observed since `since`, oldest first: the table's (as of the batch start) and this batch's. */
  const recent = (id: number, since: string): string[] => {
    const before = start.history.get(id) ?? [];
    const mine = added.get(id);
    if (!mine) return before.filter((o) => o.at >= since).map((o) => o.price);
    const all = new Map(before.map((o) => [o.at, o.price]));
    for (const [at, price] of mine) all.set(at, price);
    return [...all].filter(([at]) => at >= since).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, p]) => p);
  };

  for (const r of records) {
    const key = keyOf(r.source, r.sku);
    const entry = byKey.get(key);
    const prev = entry ? (entry.read ??= toListing(stateRow(entry.id, entry.uuid, entry.groupId, entry.createdAt, entry.state)))
      : (start.existing.get(key) ?? null);
    const p = planIngest(prev, r, prev && prev.price !== r.price ? recent(prev.id, sinceOf(r.observedAt)) : []);
    const id = prev?.id ?? start.newIds[nextNew++];
    const uuid = prev?.uuid ?? listingUuid(r.source, r.sku);
    if (p.state) {
      let e = entry;
      if (!e) {
        e = { id, uuid, createdAt: prev?.createdAt ?? r.observedAt, groupId: prev?.groupId ?? id, state: p.state, read: null, isNew: !prev, written: false, regroup: null, lastOp: -1 };
        byKey.set(key, e);
        plan.listings.push(e);
      }
      e.state = p.state;
      e.read = null;
      if (p.outcome !== 'unchanged') {
        e.written = true;
        if (!prev) plan.inserted++;
      }
      if (p.regroup) {
        const profile = r.matchProfile ?? profileOfListing(p.state);
        e.regroup = { id, isNew: e.isNew, profile, keys: blockingKeys(profile) };
        e.lastOp = plan.regroups.push(e.regroup) - 1;
      }
    }
    if (p.observe) {
      plan.observations.set(`${id}\u0000${r.observedAt}`, [id, r.observedAt, r.price, r.currency, r.source]);
      let mine = added.get(id);
      if (!mine) added.set(id, (mine = new Map()));
      mine.set(r.observedAt, r.price);
    }
    for (const draft of p.events) {
      const ev = draft(id, uuid);
      plan.events.kinds.push(ev.kind);
      plan.events.ids.push(id);
      plan.events.payloads.push(ev.json);
      plan.events.at.push(r.observedAt);
    }
    plan.result.events += p.events.length;
    plan.result.outcomes.push({ line: r.line, outcome: p.outcome, id });
  }
  return plan;
}
