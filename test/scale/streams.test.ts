import { Readable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { RedisSlots } from '../../src/limits/redis-slots.js';
import { rec } from '../helpers/records.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { privateRedis, schemaFactory, urlWithSchema } from './env.js';
import { until } from '../helpers/until.js';

/**
 * Issue 22 items 1 and 5 in scale-out mode: three instances (containers and apps in this process,
 * each with its own bus connection, so Redis carries what passes between them) on one PostgreSQL
 * schema and a Redis of this file's own, which the last test stops.
 */
const schemas = schemaFactory('streams');
const redis = await privateRedis('streams');
const REDIS_URL = redis.url;

interface Instance { c: Container; app: App; base: string }
const instances: Instance[] = [];
const opened: SseClient[] = [];
let tick = 0;
const at = () => new Date(Date.parse('2026-11-20T10:00:00.000Z') + ++tick * 1000).toISOString();

async function instance(url: string): Promise<Instance> {
  const c = await createContainer(loadConfig({ DATABASE_URL: url, REDIS_URL, REDIS_PREFIX: `s${process.pid}`, CATALOG_DEMO: 'off', SSE_HEARTBEAT_MS: '200' }));
  const app = await buildApp(c);
  await c.tail.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const i = { c, app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
  instances.push(i);
  return i;
}

let A: Instance, B: Instance, C: Instance;
beforeAll(async () => {
  redis.start();
  const url = urlWithSchema(schemas.schema());
  A = await instance(url);
  B = await instance(url);
  C = await instance(url);
  C.c.tail.stop(); // C's tail no longer polls: only a wake-up through Redis makes it read
});
afterAll(async () => {
  for (const s of opened) s.close();
  for (const i of instances) {
    await i.app.close();
    await i.c.close();
  }
  redis.stop();
  await schemas.dropAll();
});

const sse = async (i: Instance, path: string, headers: Record<string, string>) => {
  const s = await openSse(`${i.base}${path}`, headers);
  opened.push(s);
  return s;
};
const ready = (s: SseClient) => s.next((m) => m.event === 'ready');
const key = async (tier: 'free' | 'pro' = 'free') => {
  const { apiKey, record } = await A.c.keys.create({ tier, name: 'streams', verified: true });
  return { id: record.id, headers: { authorization: `Bearer ${apiKey}` } };
};
const ingest = (i: Instance, records: object[]) => i.c.ingest.ingestStream(Readable.from([records.map((r) => JSON.stringify(r)).join('\n')]));

describe('streams across instances', () => {
  it('an event produced on one instance reaches streams on every instance (Redis wakes their tails)', async () => {
    const { headers } = await key();
    const onA = await sse(A, '/v2/prices/stream', headers);
    const onB = await sse(B, '/v2/prices/stream', headers);
    const onC = await sse(C, '/v2/prices/stream', headers);
    await Promise.all([onA, onB, onC].map(ready));
    await ingest(A, [rec({ sku: 'X-1', price: '100.00', observed_at: at() })]);
    await ingest(A, [rec({ sku: 'X-1', price: '90.00', observed_at: at() })]);
    const seen = await Promise.all([onA, onB, onC].map((s) => s.next((m) => m.event === 'price_change', 5000)));
    expect(new Set(seen.map((m) => m.id)).size).toBe(1);
    expect(JSON.parse(seen[2].data)).toMatchObject({ old_price: '100.00', new_price: '90.00', change_pct: -10 });
  });

  it('at most 10 streams per key across instances; a stream closed on one frees a slot for another', async () => {
    const { id, headers } = await key();
    const held = await Promise.all(Array.from({ length: 10 }, (_, i) => sse(i % 2 ? B : A, '/v2/products/stream', headers)));
    expect(held.map((s) => s.status)).toEqual(Array(10).fill(200));
    await Promise.all(held.map(ready));
    for (const i of [A, B, C]) {
      const refused = await sse(i, '/v2/prices/stream', headers);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' }, rate_limit: { limit: 10, remaining: 0 } });
    }
    const onB = held[1];
    onB.close();
    await onB.ended;
    await until(async () => (await A.c.streamSlots.held(`key:${id}`)) <= 9, 1000, 10);
    const again = await sse(C, '/v2/prices/stream', headers);
    expect(again.status).toBe(200);
    expect(JSON.parse((await ready(again)).data)).toMatchObject({ limit_scope: 'deployment' });
  });

  it('rotating a key on one instance closes its streams on the others', async () => {
    const created = await A.c.keys.create({ tier: 'pro', name: 'rotate', verified: true });
    const headers = { authorization: `Bearer ${created.apiKey}` };
    const onB = await sse(B, '/v2/products/stream', headers);
    const onC = await sse(C, '/v2/prices/stream', headers);
    await Promise.all([ready(onB), ready(onC)]);
    const r = await fetch(`${A.base}/v1/keys/rotate`, { method: 'POST', headers });
    expect(r.status).toBe(200);
    await Promise.all([onB.ended, onC.ended]);
    for (const s of [onB, onC]) expect(JSON.parse(s.messages.at(-1)!.data)).toEqual({ reason: 'key_revoked' });
  });

  it('the slots of an instance that dies free themselves when their leases run out', async () => {
    const prefix = `s${process.pid}:lease-test`;
    const dying = new Redis(REDIS_URL);
    const dead = new RedisSlots(dying, prefix, 300);
    for (let i = 0; i < 10; i++) expect(await dead.acquire('key:1', 10)).not.toBeNull();
    const living = new RedisSlots(new Redis(REDIS_URL), prefix, 300);
    expect(await living.acquire('key:1', 10)).toBeNull();
    dying.disconnect(); // no release, no more renewals
    await new Promise((r) => setTimeout(r, 700));
    const lease = await living.acquire('key:1', 10);
    expect(lease?.scope).toBe('shared');
    expect(await living.held('key:1')).toBe(1);
    await living.close();
    await dead.close().catch(() => undefined);
  });

  it('Redis going away: open streams keep working (the tails poll the log), new ones open counted per instance, never a 500', async () => {
    const { headers } = await key();
    const onA = await sse(A, '/v2/prices/stream', headers);
    const onB = await sse(B, '/v2/prices/stream', headers);
    await Promise.all([ready(onA), ready(onB)]);
    redis.stop();
    await ingest(A, [rec({ sku: 'X-2', price: '100.00', observed_at: at() })]);
    await ingest(A, [rec({ sku: 'X-2', price: '50.00', observed_at: at() })]);
    for (const s of [onA, onB]) expect(JSON.parse((await s.next((m) => m.event === 'price_change', 5000)).data)).toMatchObject({ new_price: '50.00' });
    const late = await sse(B, '/v2/products/stream', headers);
    expect(late.status).toBe(200);
    expect(JSON.parse((await ready(late)).data)).toMatchObject({ limit_scope: 'instance' });
  });
});
