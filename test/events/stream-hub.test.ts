import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import type { CatalogEvent, EventKind } from '../../src/domain/events.js';
import { StreamHub, type CloseReason, type StreamSink, type StreamSpec } from '../../src/events/stream-hub.js';
import { sseMessage } from '../../src/events/sse-text.js';
import { EventTail } from '../../src/events/tail.js';
import type { EventLogStore } from '../../src/store/types.js';

/** The hub's seam between replay and live, under interleavings a real store makes rare. */
const listing = { id: 1, uuid: 'u', title: 't', price: '1.00', currency: 'SGD' as const, priceSgd: '1.00', source: 's', category: null, categoryPath: null, countryCode: 'SG', inStock: true, url: 'https://x', updatedAt: 'now' };
const event = (id: number, listingId = 1): CatalogEvent => ({
  id, listingId, createdAt: 'now', change: { kind: 'price_change', listing: { ...listing, id: listingId }, oldPrice: '1.00', newPrice: '2.00', oldPriceSgd: '1.00', changePct: 100 },
});

/** A log whose replay reads (those naming kinds) can be held: rows are read when called, handed back when released. */
class HeldLog implements EventLogStore {
  events: CatalogEvent[] = [];
  holds: Array<() => void> = [];
  hold = false;
  append(n: number, listingOf = (_id: number) => 1): void {
    const last = this.events.at(-1)?.id ?? 0;
    for (let i = 1; i <= n; i++) this.events.push(event(last + i, listingOf(last + i)));
  }
  async readAfter(afterId: number, limit: number, kinds?: EventKind[]): Promise<CatalogEvent[]> {
    const rows = this.events.filter((e) => e.id > afterId && (!kinds || kinds.includes(e.change.kind))).slice(0, limit);
    if (!this.hold || !kinds) return rows;
    return new Promise((r) => this.holds.push(() => r(rows)));
  }
  async lastId(): Promise<number> {
    return this.events.at(-1)?.id ?? 0;
  }
  release(): void {
    for (const r of this.holds.splice(0)) r();
  }
}

function sink(): StreamSink & { messages: EventSourceMessage[]; closed: boolean; unread: number } {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => messages.push(m) });
  const closers: Array<() => void> = [];
  const s = {
    messages, closed: false, unread: 0,
    write: (t: string) => parser.feed(t),
    buffered: () => s.unread,
    drained: async () => undefined,
    end: () => { s.closed = true; },
    destroy: () => { s.closed = true; },
    onClose: (fn: () => void) => void closers.push(fn),
  };
  return s;
}

function setup(opts: { idleMs?: number; maxBufferBytes?: number; replayBatch?: number } = {}) {
  const log = new HeldLog();
  const tail = new EventTail(log, 60_000);
  const hub = new StreamHub(log, tail, {
    heartbeatMs: 60_000, idleMs: opts.idleMs ?? 60_000, replayWindow: 1000, maxBufferBytes: opts.maxBufferBytes ?? 1 << 20,
    retryMs: () => 3000, now: () => new Date(), replayBatch: opts.replayBatch,
  });
  const open = (lastEventId: number | null, keyId = 1, listingIds?: ReadonlySet<number>) => {
    const out = sink();
    const closed: CloseReason[] = [];
    const spec: StreamSpec = {
      name: 'prices', keyId, kinds: ['price_change'], lastEventId, listingIds,
      accepts: (e) => !listingIds || listingIds.has(e.listingId),
      frame: (e) => sseMessage(e.id, e.change.kind, { id: e.id }), sink: out, onClose: (r) => closed.push(r),
    };
    return { out, closed, started: hub.start(spec) };
  };
  const ids = (out: ReturnType<typeof sink>) => out.messages.filter((m) => m.event === 'price_change').map((m) => Number(m.id));
  return { log, tail, hub, open, ids };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('StreamHub seam', () => {
  it('events the tail hands out while a replay read is on its way are read again, not lost', async () => {
    const { log, tail, open, ids } = setup();
    log.append(10);
    await tail.start();
    log.hold = true;
    const s = open(3);
    for (let i = 0; i < 10 && !log.holds.length; i++) await new Promise((r) => setImmediate(r));
    expect(log.holds).toHaveLength(1);
    log.hold = false;
    log.append(5); // 11..15 commit while the replay's first read (of 4..10) is held
    await tail.poke(); // ... and the tail hands them to live streams, which this one is not yet
    log.release();
    await s.started;
    log.append(3);
    await tail.poke();
    expect(ids(s.out)).toEqual(range(4, 18));
  });

  it('events a replay read before the tail did are not sent twice', async () => {
    const { log, tail, open, ids } = setup({ replayBatch: 4 });
    log.append(10);
    await tail.start();
    log.append(2); // 11, 12: committed, the tail has not polled yet
    const s = open(5);
    await s.started;
    await tail.poke();
    log.append(1);
    await tail.poke();
    expect(ids(s.out)).toEqual(range(6, 13));
    expect(s.out.messages.find((m) => m.event === 'ready')!.id).toBe('12');
  });

  it('a fresh stream starts at the tail position; a stream with a full buffer is dropped', async () => {
    const { log, tail, open, ids, hub } = setup({ maxBufferBytes: 100 });
    log.append(2);
    await tail.start();
    const a = open(null);
    const b = open(null);
    await Promise.all([a.started, b.started]);
    log.append(1);
    await tail.poke();
    b.out.unread = 1000;
    log.append(1);
    await tail.poke();
    expect(ids(a.out)).toEqual([3, 4]);
    expect(ids(b.out)).toEqual([3]);
    expect(b.closed).toEqual(['slow_reader']);
    expect(hub.count()).toBe(1);
  });

  it('a stream watching listings is offered their events only, and its position still moves past the others', async () => {
    const { log, tail, open, ids } = setup();
    await tail.start();
    const all = open(null);
    const two = open(null, 1, new Set([2]));
    await Promise.all([all.started, two.started]);
    log.append(6, (id) => (id % 3) + 1);
    await tail.poke();
    expect(ids(all.out)).toEqual(range(1, 6));
    expect(ids(two.out)).toEqual([1, 4]);
    const resumed = open(6, 1, new Set([2]));
    await resumed.started;
    expect(resumed.out.messages.find((m) => m.event === 'ready')!.id).toBe('6');
  });

  it('closeKey closes that key\'s streams only, each told why', async () => {
    const { tail, open, hub } = setup();
    await tail.start();
    const a = open(null, 1);
    const b = open(null, 2);
    await Promise.all([a.started, b.started]);
    hub.closeKey(1);
    expect(a.closed).toEqual(['key_revoked']);
    expect(JSON.parse(a.out.messages.at(-1)!.data)).toEqual({ reason: 'key_revoked' });
    expect(b.closed).toEqual([]);
    expect(hub.count(2)).toBe(1);
  });
});
