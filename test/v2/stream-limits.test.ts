import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { until } from '../helpers/until.js';

/** Issue 22 item 1: who may stream, how many, for how long, and what ends a stream. */
async function listening(env: Record<string, string> = {}): Promise<{ h: Harness; base: string; port: number }> {
  const h = await makeHarness(env);
  await h.c.tail.start();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as { port: number }).port;
  return { h, base: `http://127.0.0.1:${port}`, port };
}

let tick = 0;
const at = () => new Date(Date.parse('2026-11-20T10:00:00.000Z') + ++tick * 1000).toISOString();
const opened: SseClient[] = [];
const sse = async (url: string, headers: Record<string, string> = {}) => {
  const s = await openSse(url, headers);
  opened.push(s);
  return s;
};
const ready = (s: SseClient) => s.next((m) => m.event === 'ready');
type Coded = { error: { code: string; message: string } };

describe('keys, tiers and the per-key limit', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => ({ h, base } = await listening()));
  afterAll(async () => {
    for (const s of opened.splice(0)) s.close();
    await h.close();
  });

  it('no key or a bad key is a 401 in the standard body; an unverified key is 403 INSUFFICIENT_SCOPE', async () => {
    for (const path of ['/v2/products/stream', '/v2/prices/stream']) {
      const none = await sse(`${base}${path}`);
      expect(none.status).toBe(401);
      expect((none.body as Coded).error.code).toBe('MISSING_API_KEY');
      const bad = await sse(`${base}${path}`, { authorization: 'Bearer ck_live_not_a_key' });
      expect(bad.status).toBe(401);
      expect((bad.body as Coded).error).toMatchObject({ code: 'UNAUTHORIZED' });
      const low = await sse(`${base}${path}`, (await h.key('unverified')).headers);
      expect(low.status).toBe(403);
      expect((low.body as Coded).error.code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('HEAD is not a way to open a stream', async () => {
    const r = await h.app.inject({ method: 'HEAD', url: '/v2/prices/stream', headers: (await h.key('free')).headers });
    expect([404, 405]).toContain(r.statusCode);
    expect(h.c.streams.count()).toBe(0);
  });

  it('the 11th concurrent stream of a key is 429 before any stream starts; closing one frees its slot at once', async () => {
    const { headers } = await h.key('free');
    const keyId = (await h.c.keys.check(headers.authorization.slice(7)) as { key: { id: number } }).key.id;
    const ten = await Promise.all(Array.from({ length: 10 }, (_, i) => sse(`${base}/v2/${i % 2 ? 'prices' : 'products'}/stream`, headers)));
    expect(ten.map((s) => s.status)).toEqual(Array(10).fill(200));
    await Promise.all(ten.map(ready));
    const eleventh = await sse(`${base}/v2/prices/stream`, headers);
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toBe('5');
    expect(eleventh.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' }, rate_limit: { limit: 10, remaining: 0, retry_after: 5 } });
    expect(eleventh.headers.get('content-type')).toMatch(/^application\/json/);
    // Another key is not affected.
    const other = await sse(`${base}/v2/prices/stream`, (await h.key('free')).headers);
    expect(other.status).toBe(200);
    ten[3].close();
    await ten[3].ended;
    await until(() => h.c.streams.count(keyId) <= 9, 1000, 10);
    expect(h.c.streams.count(keyId)).toBe(9);
    expect(await h.c.streamSlots.held(`key:${keyId}`)).toBe(9);
    const again = await sse(`${base}/v2/prices/stream`, headers);
    expect(again.status).toBe(200);
  });

  it('rotating a key closes its streams (with a close event) and the old key is then refused', async () => {
    const { key, headers } = await h.key('pro');
    const a = await sse(`${base}/v2/products/stream`, headers);
    const b = await sse(`${base}/v2/prices/stream`, headers);
    await Promise.all([ready(a), ready(b)]);
    const rotated = await fetch(`${base}/v1/keys/rotate`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(rotated.status).toBe(200);
    await Promise.all([a.ended, b.ended]);
    for (const s of [a, b]) expect(JSON.parse(s.messages.at(-1)!.data)).toEqual({ reason: 'key_revoked' });
    const again = await sse(`${base}/v2/prices/stream`, headers);
    expect(again.status).toBe(401);
  });
});

describe('time: heartbeat, idle close, server timeouts, shutdown', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => ({ h, base } = await listening({
    SSE_HEARTBEAT_MS: '30000', SSE_IDLE_MS: '900', IDLE_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '250', HEADERS_TIMEOUT_MS: '250',
  })));
  afterAll(async () => {
    for (const s of opened.splice(0)) s.close();
    await h.close();
  });

  it('heartbeats come at least every half IDLE_TIMEOUT_MS, so neither the socket timeout nor the request timeout cuts a stream', async () => {
    const s = await sse(`${base}/v2/prices/stream`, (await h.key('free')).headers);
    const r = JSON.parse((await ready(s)).data);
    expect(r).toMatchObject({ heartbeat_ms: 150, idle_timeout_ms: 900 });
    await s.until((all) => all.filter((m) => m.event === 'heartbeat').length >= 4, 2000);
    expect(s.messages.some((m) => m.event === 'close')).toBe(false);
  });

  it('a stream with no event for SSE_IDLE_MS is closed with a close event, heartbeats notwithstanding; an event restarts the wait', async () => {
    const s = await sse(`${base}/v2/products/stream`, (await h.key('free')).headers);
    const started = Date.now();
    await ready(s);
    await new Promise((r) => setTimeout(r, 500));
    await h.ingest([rec({ sku: 'IDLE-1', observed_at: at() })]);
    await s.next((m) => m.event === 'product_update');
    const eventAt = Date.now();
    await s.ended;
    const closedAt = Date.now();
    expect(closedAt - eventAt).toBeGreaterThanOrEqual(800);
    expect(closedAt - started).toBeLessThan(4000);
    expect(s.messages.filter((m) => m.event === 'heartbeat').length).toBeGreaterThan(2);
    const last = s.messages.at(-1)!;
    expect(last.event).toBe('close');
    expect(JSON.parse(last.data)).toEqual({ reason: 'idle' });
  });

  it('a key revoked where this process cannot hear it (the CLI) is found by the heartbeat check', async () => {
    const { headers } = await h.key('free');
    const keyId = ((await h.c.keys.check(headers.authorization.slice(7))) as { key: { id: number } }).key.id;
    const s = await sse(`${base}/v2/prices/stream`, headers);
    await ready(s);
    await h.c.store.keys.update(keyId, { revokedAt: new Date().toISOString() });
    await s.ended;
    expect(JSON.parse(s.messages.at(-1)!.data)).toEqual({ reason: 'key_revoked' });
  });

  it('shutting the server down ends every stream with a close event', async () => {
    const s = await sse(`${base}/v2/prices/stream`, (await h.key('free')).headers);
    await ready(s);
    await h.app.close();
    await s.ended;
    expect(JSON.parse(s.messages.at(-1)!.data)).toEqual({ reason: 'shutdown' });
  });
});

describe('slow readers', () => {
  let h: Harness;
  let port: number;
  let base: string;
  beforeAll(async () => ({ h, base, port } = await listening({ SSE_MAX_BUFFER_BYTES: '65536' })));
  afterAll(async () => {
    for (const s of opened.splice(0)) s.close();
    await h.close();
  });

  it('a client that does not read is dropped once its buffer passes the cap; a reading client on the same key gets everything', async () => {
    const { key, headers } = await h.key('free');
    const keyId = ((await h.c.keys.check(key)) as { key: { id: number } }).key.id;
    const reader = await sse(`${base}/v2/prices/stream`, headers);
    await ready(reader);
    const socket: Socket = connect(port, '127.0.0.1');
    let closed = false;
    socket.on('close', () => { closed = true; });
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    socket.write(`GET /v2/prices/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    socket.pause(); // never reads: the kernel buffers fill, then the server's
    await until(() => h.c.streams.count(keyId) >= 2, 1000, 10);
    expect(h.c.streams.count(keyId)).toBe(2);
    const title = `Slow reader test listing ${'x'.repeat(450)}`;
    let round = 0;
    let sent = 0;
    // Batches of ~80 KB with a pause between: the reading client (in this process too) keeps up.
    while (h.c.streams.count(keyId) > 1 && round < 400) {
      round++;
      await h.ingest(Array.from({ length: 100 }, (_, i) => rec({ sku: `SLOW-${i}`, title, price: `${100 + (round % 2)}.00`, observed_at: at() })));
      if (round > 1) sent += 100;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(h.c.streams.count(keyId), `after ${round} rounds`).toBe(1);
    socket.resume(); // a paused socket cannot see the end: read what the kernel holds, then the close
    await until(() => closed, 3000, 10);
    expect(closed).toBe(true);
    await reader.until(() => reader.data().length >= sent, 10_000);
    expect(reader.data()).toHaveLength(sent);
  }, 60_000);
});
