import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { streamMatches, type StreamFilter } from '../../src/domain/stream-filter.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';
import { openSse, type SseClient } from '../helpers/sse.js';

/** Issue 22 item 1: resume by Last-Event-ID (exact, no gap or duplicate at the seam), the window, one source. */
async function listening(env: Record<string, string>): Promise<{ h: Harness; base: string }> {
  const h = await makeHarness(env);
  await h.c.tail.start();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return { h, base: `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}` };
}

let tick = 0;
const at = () => new Date(Date.parse('2026-11-20T10:00:00.000Z') + ++tick * 1000).toISOString();
const ids = (s: SseClient) => s.data().map((m) => Number(m.id));
const opened: SseClient[] = [];
const sse = async (url: string, headers: Record<string, string>) => {
  const s = await openSse(url, headers);
  opened.push(s);
  return s;
};

describe('Last-Event-ID', () => {
  let h: Harness;
  let base: string;
  let auth: Record<string, string>;
  beforeAll(async () => {
    ({ h, base } = await listening({ SSE_HEARTBEAT_MS: '100' }));
    auth = (await h.key('pro')).headers;
  });
  afterAll(async () => {
    for (const s of opened.splice(0)) s.close();
    await h.close();
  });

  it('a client that reconnects again and again while prices change gets exactly the matching events, once each, in order', async () => {
    const path = '/v2/prices/stream?min_price_change_pct=5';
    const filter: StreamFilter = { stream: 'prices', minChangePct: 5 };
    const reference = await sse(`${base}${path}`, auth);
    const r = await reference.next((m) => m.event === 'ready');
    const start = Number(r.id);
    let client = await sse(`${base}${path}`, auth);
    await client.next((m) => m.event === 'ready');
    const received: number[] = [];
    const rounds: number[] = [];
    const skus = Array.from({ length: 8 }, (_, i) => `RS-${i}`);
    const price = new Map(skus.map((s) => [s, 100]));
    let stop = false;
    // Prices move by 1 % to 12 % either way, in batches, while the client drops and resumes.
    const writer = (async () => {
      for (let batch = 0; batch < 60 && !stop; batch++) {
        await h.ingest(skus.map((sku, i) => {
          const step = ((batch * 7 + i * 3) % 12) + 1;
          const next = Math.max(1, Math.round(price.get(sku)! * (1 + ((batch + i) % 2 ? step : -step) / 100)));
          price.set(sku, next);
          return rec({ sku, price: `${next}.00`, observed_at: at() });
        }));
        await new Promise((res) => setTimeout(res, 10));
      }
    })();
    for (let round = 0; round < 6; round++) {
      await client.until(() => client.data().length >= 3, 5000).catch(() => undefined);
      client.close();
      await client.ended;
      received.push(...ids(client));
      rounds.push(ids(client).length);
      const last = client.messages.filter((m) => m.id !== undefined).pop()!.id!; // what EventSource would send
      client = await sse(`${base}${path}`, { ...auth, 'last-event-id': last });
      const ready = await client.next((m) => m.event === 'ready');
      expect(JSON.parse(ready.data)).toMatchObject({ resumed: true });
    }
    await writer;
    stop = true;
    const head = await h.c.store.events.lastId();
    await client.next((m) => Number(m.id) >= head && m.event === 'heartbeat');
    await reference.next((m) => Number(m.id) >= head && m.event === 'heartbeat');
    received.push(...ids(client));
    const expected = (await h.c.store.events.readAfter(start, 100_000)).filter((e) => streamMatches(filter, e)).map((e) => e.id);
    expect(expected.length).toBeGreaterThan(100);
    // Every reconnection came while prices were still changing.
    expect(rounds.every((n) => n >= 3), rounds.join(',')).toBe(true);
    expect(ids(reference)).toEqual(expected);
    expect(received).toEqual(expected);
  });

  it('resuming at the newest id replays nothing and goes live', async () => {
    const head = await h.c.store.events.lastId();
    const s = await sse(`${base}/v2/prices/stream`, { ...auth, 'last-event-id': String(head) });
    const ready = await s.next((m) => m.event === 'ready');
    expect(JSON.parse(ready.data)).toMatchObject({ resumed: true, replayed: 0, last_event_id: head });
    await h.ingest([rec({ sku: 'RS-0', price: '5000.00', observed_at: at() })]);
    const m = await s.next((x) => x.event === 'price_change');
    expect(Number(m.id)).toBeGreaterThan(head);
  });
});

describe('the replay window', () => {
  let h: Harness;
  let base: string;
  let auth: Record<string, string>;
  beforeAll(async () => {
    ({ h, base } = await listening({ SSE_REPLAY_EVENTS: '5' }));
    auth = (await h.key('free')).headers;
    await h.ingest(Array.from({ length: 20 }, (_, i) => rec({ sku: `W-${i}`, observed_at: at() })));
  });
  afterAll(async () => {
    for (const s of opened.splice(0)) s.close();
    await h.close();
  });

  it('an id older than the window is told so in a reset event, then the window is replayed', async () => {
    const head = await h.c.store.events.lastId();
    const s = await sse(`${base}/v2/products/stream`, { ...auth, 'last-event-id': '2' });
    const ready = await s.next((m) => m.event === 'ready');
    const reset = s.messages[0];
    expect(reset.event).toBe('reset');
    expect(JSON.parse(reset.data)).toMatchObject({ reason: 'too_old', last_event_id: 2, oldest_event_id: head - 4, newest_event_id: head });
    expect(Number(reset.id)).toBe(head - 5);
    expect(ids(s)).toEqual([head - 4, head - 3, head - 2, head - 1, head]);
    expect(JSON.parse(ready.data)).toMatchObject({ resumed: true, replayed: 5, replay_window_events: 5 });
  });

  it('an id inside the window resumes without a reset; an id the log never had is reset to now', async () => {
    const head = await h.c.store.events.lastId();
    const s = await sse(`${base}/v2/products/stream`, { ...auth, 'last-event-id': String(head - 5) });
    await s.next((m) => m.event === 'ready');
    expect(s.messages.some((m) => m.event === 'reset')).toBe(false);
    expect(ids(s)).toHaveLength(5);
    const ahead = await sse(`${base}/v2/products/stream`, { ...auth, 'last-event-id': String(head + 1000) });
    await ahead.next((m) => m.event === 'ready');
    expect(ahead.messages[0].event).toBe('reset');
    expect(JSON.parse(ahead.messages[0].data)).toMatchObject({ reason: 'unknown_id', last_event_id: head + 1000, newest_event_id: head });
    expect(ids(ahead)).toEqual([]);
  });
});

describe('one source', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-streams-'));
  const url = `sqlite:${join(dir, 'catalog.db')}`;
  let h: Harness;
  let base: string;
  afterAll(async () => {
    for (const s of opened.splice(0)) s.close();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an import run by another process on the same store reaches the server\'s streams (the tail polls the log)', async () => {
    ({ h, base } = await listening({ DATABASE_URL: url }));
    const s = await sse(`${base}/v2/products/stream`, (await h.key('free')).headers);
    await s.next((m) => m.event === 'ready');
    // What `catalog import` does: its own container on the same database file.
    const cli = await createContainer(loadConfig({ DATABASE_URL: url, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off' }));
    try {
      await cli.ingest.ingestStream(Readable.from([JSON.stringify(rec({ sku: 'CLI-1', observed_at: at() }))]));
    } finally {
      await cli.close();
    }
    const m = await s.next((x) => x.event === 'product_update', 5000);
    expect(JSON.parse(m.data)).toMatchObject({ change: 'created', title: rec().title });
  });
});
