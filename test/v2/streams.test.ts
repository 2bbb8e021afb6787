import AjvModule from 'ajv';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PriceChangeData, ProductUpdateData, StockChangeData } from '../../src/api/v2/stream-schemas.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';
import { openSse, type SseClient } from '../helpers/sse.js';

/** Issue 22 item 1: the two V2 streams over a listening app: shapes, filters, heartbeat, resume. */
const Ajv = AjvModule as unknown as typeof AjvModule.default;
const ajv = new Ajv({ strict: false, allErrors: true });
const SHAPES = { product_update: ajv.compile(ProductUpdateData), price_change: ajv.compile(PriceChangeData), stock_change: ajv.compile(StockChangeData) };

let h: Harness;
let base: string;
let auth: { authorization: string };
const open: SseClient[] = [];
beforeAll(async () => {
  h = await makeHarness({ SSE_HEARTBEAT_MS: '150' });
  await h.c.tail.start();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
});
// A key per test: the streams a test leaves open do not count against the next one's.
beforeEach(async () => { auth = (await h.key('free')).headers; });
afterEach(() => { for (const s of open.splice(0)) s.close(); });
afterAll(async () => { await h.close(); });

async function stream(path: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const s = await openSse(`${base}${path}`, { ...auth, ...headers });
  open.push(s);
  return s;
}
const ready = (s: SseClient) => s.next((m) => m.event === 'ready');

let tick = 0;
/** Each call observes later than the last, so an update is news. */
const at = () => new Date(Date.parse('2026-11-20T10:00:00.000Z') + ++tick * 1000).toISOString();
const idOf = async (sku: string) => (await h.c.catalog.findBySku(sku))[0].id;
const parsed = (s: SseClient) => s.data().map((m) => ({ id: Number(m.id), event: m.event, ...JSON.parse(m.data) }));

describe('event shapes', () => {
  it('sends retry, ready, then product_update / stock_change on the product stream, each with id, event and one JSON data line', async () => {
    const s = await stream('/v2/products/stream');
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.headers.get('x-ratelimit-limit')).not.toBeNull();
    const r = await ready(s);
    expect(JSON.parse(r.data)).toMatchObject({ stream: 'products', resumed: false, heartbeat_ms: 150, idle_timeout_ms: 300000 });
    expect(s.retry).toBeGreaterThanOrEqual(3000);
    await h.ingest([rec({ sku: 'SH-1', observed_at: at() })]);
    await h.ingest([rec({ sku: 'SH-1', price: '450.00', in_stock: false, observed_at: at() })]);
    await s.until(() => s.data().length >= 3);
    const [created, updated, stock] = parsed(s);
    expect(created).toMatchObject({ event: 'product_update', change: 'created', title: rec().title, price: '499.00', currency: 'SGD' });
    expect(updated).toMatchObject({ event: 'product_update', change: 'updated', price: '450.00' });
    expect(stock).toMatchObject({ event: 'stock_change', old_stock_status: 'in_stock', new_stock_status: 'out_of_stock', old_in_stock: true, new_in_stock: false });
    for (const m of s.data()) {
      expect(SHAPES[m.event as keyof typeof SHAPES](JSON.parse(m.data)), JSON.stringify(SHAPES[m.event as keyof typeof SHAPES].errors)).toBe(true);
      expect(m.id).toMatch(/^\d+$/);
    }
    // The log's ids, in order.
    const logged = await h.c.store.events.readAfter(Number(r.id), 100);
    expect(s.data().map((m) => Number(m.id))).toEqual(logged.filter((e) => e.change.kind !== 'price_change').map((e) => e.id));
  });

  it('the price stream sends price_change only: product_id, old_price, new_price, change_pct (negative for a drop)', async () => {
    const s = await stream('/v2/prices/stream');
    await ready(s);
    await h.ingest([rec({ sku: 'PR-1', price: '100.00', observed_at: at() })]);
    await h.ingest([rec({ sku: 'PR-1', price: '80.00', observed_at: at() })]);
    const m = await s.next((x) => x.event === 'price_change');
    const d = JSON.parse(m.data);
    expect(d).toMatchObject({ product_id: await idOf('PR-1'), old_price: '100.00', new_price: '80.00', change_pct: -20, currency: 'SGD' });
    expect(SHAPES.price_change(d)).toBe(true);
    expect(s.data().every((x) => x.event === 'price_change')).toBe(true);
  });
});

describe('filters', () => {
  it('product stream: category, platform, country, price bounds (SGD) and in_stock', async () => {
    const streams = {
      category: await stream('/v2/products/stream?category=laptop'),
      platform: await stream('/v2/products/stream?platform=LAZADA_SG'),
      country: await stream('/v2/products/stream?country=MY'),
      price: await stream('/v2/products/stream?min_price=100&max_price=200'),
      out: await stream('/v2/products/stream?in_stock=false'),
    };
    await Promise.all(Object.values(streams).map(ready));
    await h.ingest([
      rec({ sku: 'F-LAP', category: 'Laptops', category_path: ['Computers', 'Laptops'], observed_at: at() }),
      rec({ sku: 'F-LAZ', source: 'lazada_sg', observed_at: at() }),
      rec({ sku: 'F-MY', currency: 'MYR', country_code: 'MY', price: '2000.00', observed_at: at() }),
      rec({ sku: 'F-150', price: '150.00', observed_at: at() }),
      rec({ sku: 'F-OUT', in_stock: false, stock_level: null, observed_at: at() }),
    ]);
    const lastId = await h.c.store.events.lastId();
    for (const s of Object.values(streams)) await s.next((m) => m.event === 'heartbeat' && Number(m.id) >= lastId);
    const skus = async (s: SseClient) => Promise.all(parsed(s).map(async (d) => (await h.c.catalog.findById(d.id))!.sku));
    expect(await skus(streams.category)).toEqual(['F-LAP']);
    expect(await skus(streams.platform)).toEqual(['F-LAZ']);
    expect(await skus(streams.country)).toEqual(['F-MY']);
    expect(await skus(streams.price)).toEqual(['F-150']);
    expect(await skus(streams.out)).toEqual(['F-OUT']);
  });

  it('price stream: product_ids, min_price_change_pct (either way), price bounds and category', async () => {
    await h.ingest([
      rec({ sku: 'P-A', price: '100.00', observed_at: at() }), rec({ sku: 'P-B', price: '100.00', observed_at: at() }),
      rec({ sku: 'P-C', price: '100.00', category: 'Kettles', category_path: ['Home', 'Kettles'], observed_at: at() }),
    ]);
    const [a, b] = [await idOf('P-A'), await idOf('P-B')];
    const streams = {
      ids: await stream(`/v2/prices/stream?product_ids=${a}, ${b}`),
      pct: await stream('/v2/prices/stream?min_price_change_pct=5'),
      price: await stream('/v2/prices/stream?max_price=100'),
      category: await stream('/v2/prices/stream?category=home'),
    };
    await Promise.all(Object.values(streams).map(ready));
    await h.ingest([
      rec({ sku: 'P-A', price: '98.00', observed_at: at() }), // -2 %
      rec({ sku: 'P-B', price: '110.00', observed_at: at() }), // +10 %
      rec({ sku: 'P-C', price: '90.00', category: 'Kettles', category_path: ['Home', 'Kettles'], observed_at: at() }), // -10 %
    ]);
    const lastId = await h.c.store.events.lastId();
    for (const s of Object.values(streams)) await s.next((m) => m.event === 'heartbeat' && Number(m.id) >= lastId);
    const pids = (s: SseClient) => parsed(s).map((d) => d.product_id);
    const c = await idOf('P-C');
    expect(pids(streams.ids)).toEqual([a, b]);
    expect(pids(streams.pct)).toEqual([b, c]);
    expect(pids(streams.price)).toEqual([a, c]);
    expect(pids(streams.category)).toEqual([c]);
  });

  it('bad input is a 422 in the V2 envelope naming the field, before any stream starts', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/v2/prices/stream?product_ids=1,x', {}, 'product_ids'],
      [`/v2/prices/stream?product_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, {}, 'product_ids'],
      ['/v2/products/stream?min_price=5&max_price=1', {}, 'min_price'],
      ['/v2/products/stream?country=Malaysia', {}, 'country'],
      ['/v2/products/stream?colour=red', {}, 'colour'],
      ['/v2/prices/stream?min_price_change_pct=-1', {}, 'min_price_change_pct'],
      ['/v2/products/stream', { 'last-event-id': 'abc' }, 'last-event-id'],
    ];
    for (const [path, headers, field] of cases) {
      const s = await stream(path, headers);
      expect(s.status, path).toBe(422);
      expect((s.body as { error: { code: string; details: { errors: Array<{ field: string }> } } }).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ field }] } });
    }
  });
});

describe('heartbeat', () => {
  it('comes every SSE_HEARTBEAT_MS with the stream position as its id', async () => {
    const s = await stream('/v2/prices/stream?product_ids=999999');
    const r = await ready(s);
    const started = Date.now();
    await s.until((all) => all.filter((m) => m.event === 'heartbeat').length >= 3);
    expect(Date.now() - started).toBeLessThan(2000);
    const beat = s.messages.find((m) => m.event === 'heartbeat')!;
    expect(Number(beat.id)).toBeGreaterThanOrEqual(Number(r.id));
    expect(JSON.parse(beat.data)).toHaveProperty('time');
  });
});
