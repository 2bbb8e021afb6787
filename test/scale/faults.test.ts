import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { isUnavailable } from '../../src/http/errors.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { TEST_DATABASE_URL, privateRedis, schemaFactory } from './env.js';
import { until } from '../helpers/until.js';

/** A TCP proxy in front of PostgreSQL: stopping it is the database going away, for this test only. */
class Outage {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

const schemas = schemaFactory('faults');
const target = new URL(TEST_DATABASE_URL);
const proxy = new Outage({ host: target.hostname, port: Number(target.port || 5432) });
const redis = await privateRedis('faults');

let app: App;
let c: Container;
let auth: { authorization: string };
const logs: string[] = [];

beforeAll(async () => {
  await proxy.up();
  redis.start();
  const schema = schemas.schema();
  const url = new URL(TEST_DATABASE_URL);
  url.port = String(proxy.port);
  const store = await createPostgresStore(url.toString(), { schema, connectTimeoutMs: 1000, statementTimeoutMs: 2000 });
  const config = loadConfig({ DATABASE_URL: url.toString(), REDIS_URL: redis.url, CATALOG_DEMO: 'off' });
  c = await createContainer(config, { store });
  app = await buildApp(c, { logger: { level: 'warn', stream: { write: (line: string) => void logs.push(line) } } });
  await app.ready();
  auth = { authorization: `Bearer ${(await c.keys.create({ tier: 'pro', name: 'faults', verified: true })).apiKey}` };
});

afterAll(async () => {
  await app?.close();
  await c?.close();
  await proxy.down();
  redis.stop();
  await schemas.dropAll();
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: auth });

describe('faults', () => {
  it('PostgreSQL down: 503 with the standard envelope, then recovers by itself', async () => {
    expect((await get('/v1/products/1')).statusCode).toBe(404);
    await proxy.down();
    const down = await get('/v1/products/1');
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toEqual({ error: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) }) });
    const search = await get('/v1/products/search?q=phone&sort_by=relevance');
    expect(search.statusCode).toBe(503);
    await proxy.up();
    let status = 0;
    await until(async () => (status = (await get('/v1/products/1')).statusCode) === 404, 2000, 100);
    expect(status).toBe(404);
  });

  it('a slow database is cut off by the statement timeout and reported as unavailable', async () => {
    const store = await createPostgresStore(TEST_DATABASE_URL, { schema: schemas.schema(), statementTimeoutMs: 200 });
    try {
      const started = Date.now();
      const err = await store.pool.query('SELECT pg_sleep(5)').catch((e: Error & { code?: string }) => e);
      expect(Date.now() - started).toBeLessThan(2000);
      expect((err as { code?: string }).code).toBe('57014');
      expect(isUnavailable(err as Error)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('a full pool makes requests fail fast instead of queueing without bound', async () => {
    const store = await createPostgresStore(TEST_DATABASE_URL, { schema: schemas.schema(), max: 1, connectTimeoutMs: 300 });
    await store.migrate();
    const held = await store.pool.connect();
    try {
      const err = await store.catalog.getById(1).catch((e: Error) => e);
      expect(isUnavailable(err as Error)).toBe(true);
    } finally {
      held.release();
      await store.close();
    }
  });

  it('Redis down: requests are admitted without limits and a warning is logged; never a 500', async () => {
    const before = await get('/v1/products/1');
    expect(before.headers['x-ratelimit-limit']).toBeDefined();
    redis.stop();
    logs.length = 0;
    for (let i = 0; i < 3; i++) {
      const r = await get('/v1/products/1');
      expect(r.statusCode).toBe(404);
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(logs.some((l) => l.includes('rate limiter unavailable'))).toBe(true);
    redis.start();
    let limited: string | undefined;
    await until(async () => (limited = (await get('/v1/products/1')).headers['x-ratelimit-limit'] as string | undefined) !== undefined, 4000, 100);
    expect(limited).toBeDefined();
  });

  it('an ingest batch cut off half way leaves nothing behind, in the table or in the writer', async () => {
    const ingest = (records: Array<Record<string, unknown>>) => app.inject({ method: 'POST', url: '/v1/ingest/products', headers: auth, payload: records });
    const rec = (sku: string, source: string, title: string) => ({
      source, sku, title, price: '99.00', currency: 'SGD', url: `https://shop.example.com/${sku}`, observed_at: '2026-11-20T10:00:00.000Z',
    });
    expect((await ingest([rec('F1', 'shopee_sg', 'Acme Rocket Skates Model RS-9000 Red')])).statusCode).toBe(200);
    const before = await c.store.catalog.count();
    // Another session holds block_keys: the batch's second statement waits past the statement timeout.
    const blocker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await blocker.connect();
    const schema = (c.store as unknown as { schema: string }).schema;
    await blocker.query(`BEGIN; LOCK TABLE "${schema}".block_keys IN SHARE MODE`);
    const fresh = rec('F2', 'lazada_sg', 'Zenith Kettle Steel 1.7L KT-44 Silver');
    const cut = await ingest([fresh]);
    await blocker.query('ROLLBACK');
    await blocker.end();
    expect(cut.statusCode).toBe(503);
    expect(await c.store.catalog.count()).toBe(before);
    // The writer planned that batch in memory before it failed (posting lists, groups): none of it may
    // survive, or the listing would now find its own phantom and join a group no listing has.
    const again = await ingest([fresh]);
    expect(again.json()).toMatchObject({ inserted: 1, rejected: 0 });
    const [f2] = await c.store.catalog.getBySku('F2');
    expect(f2.groupId).toBe(f2.id);
  });
});
