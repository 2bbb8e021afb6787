import Big from 'big.js';
import Database from 'better-sqlite3';
import { compareStream, type PriceStream } from './price-stream.js';
import type { WebhookSink } from './webhook-sink.js';

/** A listing as the drill sent it: every (observed_at, price) in order, the first being its insert. */
export interface SentListing { source: string; sku: string; record: Record<string, unknown>; history: Array<{ at: string; price: string }> }

export interface Check { name: string; ok: boolean; detail: string }

export interface DrillFacts {
  db: string;
  sent: SentListing[];
  subscriptions: string[];
  sink: WebhookSink;
  /** Per server kill, in order: the deliveries the store had recorded as succeeded when it died. */
  recordedAtKill: Array<Set<string>>;
  streams: PriceStream[];
  registered: Array<{ name: string; key: string; keyId: number }>;
  /** Registrations that got no 201 (refused while starting, or cut by a kill): created at most once. */
  unanswered: string[];
  serverExit: number | null;
}

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);
const samePrice = (a: string, b: string) => new Big(a).eq(b);
const keyOf = (source: string, sku: string) => `${source}\u0000${sku}`;

/**
 * Compares the store (read-only) with what the drill sent. "Lost" and "duplicated", per kind:
 * - listing: each (source, sku) sent is one row, at the last price sent; no other row;
 * - observation: exactly one per distinct price a listing was sent at (its insert, then each move);
 * - event: per listing one `price_change` per move (old and new price in order) and one
 *   `product_update` per insert or move: a change logged twice or never fails;
 * - webhook delivery: per subscription one delivery per `price_change` logged after it was made
 *   that passes its `min_price_change_pct`,
 *   all succeeded, each received, one successful attempt recorded each. Sending is at least once
 *   (docs/realtime.md): a delivery may come again only after an attempt the store records as failed
 *   (a timeout: the receiver may have had it) or a kill of the server before it recorded the
 *   success; any other repeat, or one after its success was in the store when its server was
 *   killed, is a duplicate;
 * - stream event: each stream gets every `price_change` after its start, in log order, once,
 *   across the server's kills (resumed with Last-Event-ID);
 * - key: each registration answered 201 is one row under its name with its id; one not answered
 *   (cut by a kill) at most one row.
 */
export function checkDrill(f: DrillFacts): Check[] {
  const db = new Database(f.db, { readonly: true, fileMustExist: true });
  try {
    const checks: Check[] = [];
    const add = (name: string, problems: string[], ok: string) =>
      checks.push({ name, ok: problems.length === 0, detail: problems.length ? `${problems.length} problem(s): ${problems.slice(0, 5).join('; ')}` : ok });
    const sentBy = new Map(f.sent.map((l) => [keyOf(l.source, l.sku), l]));
    const rows = db.prepare('SELECT id, source, sku, price FROM listings').all() as Array<{ id: number; source: string; sku: string; price: string }>;
    const byId = new Map<number, SentListing>();
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const r of rows) {
      const l = sentBy.get(keyOf(r.source, r.sku));
      if (!l) problems.push(`unexpected listing ${r.source}/${r.sku}`);
      else if (seen.has(keyOf(r.source, r.sku))) problems.push(`listing ${r.sku} twice`);
      else if (!samePrice(r.price, l.history.at(-1)!.price)) problems.push(`${r.sku}: price ${r.price}, last sent ${l.history.at(-1)!.price}`);
      seen.add(keyOf(r.source, r.sku));
      if (l) byId.set(r.id, l);
    }
    for (const l of f.sent) if (!seen.has(keyOf(l.source, l.sku))) problems.push(`listing ${l.source}/${l.sku} lost`);
    const counter = db.prepare("SELECT value FROM counters WHERE name = 'listings'").pluck().get() as number;
    if (counter !== rows.length) problems.push(`listing counter ${counter}, rows ${rows.length}`);
    add('listings', problems, `${rows.length} of ${f.sent.length} sent, each once, each at its last price sent; counter agrees`);

    const obs = groupBy(db.prepare('SELECT listing_id, observed_at, price FROM observations ORDER BY listing_id, observed_at').all() as Array<{ listing_id: number; observed_at: string; price: string }>);
    const obsProblems: string[] = [];
    let expectedObs = 0;
    for (const [id, l] of byId) {
      const got = obs.get(id) ?? [];
      expectedObs += l.history.length;
      const same = got.length === l.history.length && got.every((o, k) => sameInstant(o.observed_at, l.history[k].at) && samePrice(o.price, l.history[k].price));
      if (!same) obsProblems.push(`${l.sku}: ${got.length} observations for ${l.history.length} prices sent`);
    }
    const totalObs = db.prepare('SELECT count(*) FROM observations').pluck().get() as number;
    if (totalObs !== expectedObs) obsProblems.push(`${totalObs} observations, ${expectedObs} sent`);
    add('observations (price history)', obsProblems, `${totalObs}: one per distinct price sent per listing`);

    const events = db.prepare('SELECT id, kind, listing_id, payload FROM events ORDER BY id').all() as Array<{ id: number; kind: string; listing_id: number; payload: string }>;
    const moves = groupBy(events.filter((e) => e.kind === 'price_change'));
    const updates = groupBy(events.filter((e) => e.kind === 'product_update'));
    const evProblems: string[] = [];
    for (const [id, l] of byId) {
      const got = (moves.get(id) ?? []).map((e) => JSON.parse(e.payload) as { old_price: string; new_price: string });
      const want = l.history.slice(1).map((h, k) => ({ old: l.history[k].price, new: h.price }));
      const same = got.length === want.length && got.every((g, k) => samePrice(g.old_price, want[k].old) && samePrice(g.new_price, want[k].new));
      if (!same) evProblems.push(`${l.sku}: ${got.length} price_change events for ${want.length} moves`);
      const u = updates.get(id)?.length ?? 0;
      if (u !== l.history.length) evProblems.push(`${l.sku}: ${u} product_update events for ${l.history.length} writes`);
    }
    const priceIds = events.filter((e) => e.kind === 'price_change').map((e) => e.id);
    const pctOf = new Map(events.filter((e) => e.kind === 'price_change').map((e) => [e.id, Math.abs((JSON.parse(e.payload) as { change_pct: number }).change_pct)]));
    add('events', evProblems, `${events.length} in the log: one price_change per move and one product_update per insert or move, per listing`);

    // Webhooks: the store against the log, the receiver against the store.
    const hookProblems: string[] = [];
    const deliveries = db.prepare('SELECT id, subscription_id, event_id, status FROM webhook_deliveries').all() as Array<{ id: string; subscription_id: string; event_id: number; status: string }>;
    const attemptsOf = db.prepare('SELECT error FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt');
    const eventOf = new Map(deliveries.map((d) => [d.id, d.event_id]));
    for (const sub of f.subscriptions) {
      const { from, min } = db.prepare('SELECT from_event_id AS "from", min_price_change_pct AS min FROM webhook_subscriptions WHERE id = ?').get(sub) as { from: number; min: number };
      const owed = priceIds.filter((id) => id > from && pctOf.get(id)! >= min);
      const mine = deliveries.filter((d) => d.subscription_id === sub);
      const ids = new Set(mine.map((d) => d.event_id));
      if (mine.length !== owed.length || owed.some((id) => !ids.has(id))) hookProblems.push(`subscription ${sub}: ${mine.length} deliveries for ${owed.length} events`);
      const unfinished = mine.filter((d) => d.status !== 'succeeded').length;
      if (unfinished) hookProblems.push(`subscription ${sub}: ${unfinished} not succeeded`);
    }
    const received = new Map<string, number[]>();
    for (const r of f.sink.receipts) received.set(r.id, [...(received.get(r.id) ?? []), r.epoch]);
    let repeatsAllowed = 0;
    for (const d of deliveries) {
      const epochs = received.get(d.id);
      if (!epochs) {
        hookProblems.push(`delivery ${d.id} (event ${d.event_id}) never received`);
        continue;
      }
      // Each repeat needs a cause: an attempt the server saw fail (a timeout: it may have arrived),
      // or a kill of the server that sent it before it recorded the success.
      const tries = attemptsOf.all(d.id) as Array<{ error: string | null }>;
      const failed = tries.filter((t) => t.error !== null).length;
      const succeeded = tries.length - failed;
      const kills = new Set(epochs).size - 1;
      if (succeeded !== 1) hookProblems.push(`delivery ${d.id}: ${succeeded} successful attempts recorded`);
      if (epochs.length - 1 > failed + kills) hookProblems.push(`delivery ${d.id} received ${epochs.length} times, ${failed} failed attempt(s), ${kills} kill(s)`);
      const recordedBy = f.recordedAtKill.findIndex((s) => s.has(d.id));
      if (recordedBy >= 0 && epochs.some((e) => e > recordedBy)) hookProblems.push(`delivery ${d.id} sent again after its success was recorded`);
      repeatsAllowed += epochs.length - 1;
    }
    for (const r of f.sink.receipts) {
      if (!eventOf.has(r.id)) hookProblems.push(`received ${r.id}, which the store does not hold`);
      else if (r.eventId !== eventOf.get(r.id)) hookProblems.push(`${r.id} carried event ${r.eventId}, stored ${eventOf.get(r.id)}`);
    }
    if (f.sink.invalid) hookProblems.push(`${f.sink.invalid} bad signatures`);
    add('webhook deliveries', hookProblems, `${deliveries.length} stored for ${f.subscriptions.length} subscriptions, all succeeded and received with valid signatures; `
      + `${repeatsAllowed} repeat(s), each after a failed attempt or a kill before its success was recorded`);

    const streamProblems: string[] = [];
    f.streams.forEach((s, i) => {
      const c = compareStream(s.ids, priceIds.filter((id) => id > s.startId!));
      if (!c.exact) streamProblems.push(`stream ${i}: missing ${c.missing}, extra or repeated ${c.extra}`);
    });
    add('price streams', streamProblems, `${f.streams.length} streams each got every price_change after its start, in order, once (${f.streams.reduce((n, s) => n + s.reconnects, 0)} reconnections)`);

    const keyRows = db.prepare("SELECT id, name FROM api_keys WHERE name LIKE 'drill-%'").all() as Array<{ id: number; name: string }>;
    const keysByName = groupBy(keyRows.map((k) => ({ ...k, listing_id: 0 })), (k) => k.name);
    const keyProblems: string[] = [];
    for (const r of f.registered) {
      const got = keysByName.get(r.name) ?? [];
      if (got.length !== 1 || got[0].id !== r.keyId) keyProblems.push(`${r.name}: ${got.length} rows for an acknowledged key`);
    }
    for (const name of f.unanswered) if ((keysByName.get(name)?.length ?? 0) > 1) keyProblems.push(`${name}: created twice`);
    const known = new Set([...f.registered.map((r) => r.name), ...f.unanswered, 'drill-admin', 'drill-streams']);
    for (const k of keyRows) if (!known.has(k.name)) keyProblems.push(`unexpected key ${k.name}`);
    for (const name of ['drill-admin', 'drill-streams']) if ((keysByName.get(name)?.length ?? 0) !== 1) keyProblems.push(`${name}: not exactly once`);
    add('keys', keyProblems, `${f.registered.length} acknowledged registrations each stored once; ${f.unanswered.length} unanswered, ${f.unanswered.filter((n) => keysByName.has(n)).length} of them stored, none twice`);

    const recProblems: string[] = [];
    if ((db.prepare('SELECT count(*) FROM bulk_load').pluck().get() as number) !== 0) recProblems.push('an interrupted bulk load is still marked');
    const unmatched = db.prepare('SELECT count(*) FROM listings WHERE match_profile IS NULL').pluck().get() as number;
    if (unmatched) recProblems.push(`${unmatched} listings never matched`);
    const integrity = db.prepare('PRAGMA integrity_check').pluck().get();
    if (integrity !== 'ok') recProblems.push(`integrity_check: ${String(integrity)}`);
    if (f.serverExit !== 0) recProblems.push(`the last server exited ${f.serverExit} on SIGTERM`);
    add('recovery', recProblems, 'no bulk load left marked, every listing matched, integrity_check ok, the last server stopped cleanly');
    return checks;
  } finally {
    db.close();
  }
}

function groupBy<T extends { listing_id: number }, K = number>(rows: T[], key: (r: T) => K = (r) => r.listing_id as K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
