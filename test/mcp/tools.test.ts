import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_CALLS as READ_BAD, expectValidOutput, GOOD_CALLS as READ_GOOD, KEY_BAD_CALLS, KEY_GOOD_CALLS, refusalOf, serveSeeded, type Served } from './setup.js';

const GOOD_CALLS = { ...READ_GOOD, ...KEY_GOOD_CALLS };
const BAD_CALLS = { ...READ_BAD, ...KEY_BAD_CALLS };

// Ids: the history first (1 SG-A55, 2 SG-KETTLE), then test/helpers/catalog.ts (3 MY-A55, 4 US-A55, 5 SG-CASE, 6 the rice cooker).

/** Issue 23: every tool over Streamable HTTP with the SDK's own client, held to its outputSchema, and answering like REST. */
let s: Served;
let client: Client;
let tools: Map<string, Tool>;
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
// The results were validated against their schemas just before: the assertions read them freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const valid = async (name: string, args: Record<string, unknown>) => expectValidOutput(tools.get(name)!, await call(name, args)) as Record<string, any>;
const rest = async (path: string) => (await s.h.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${s.key}` } })).json();

beforeAll(async () => {
  s = await serveSeeded();
  client = await s.client();
  tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
});
afterAll(() => s.close());

describe('tools/list', () => {
  it('lists the eleven tools, each with input and output schemas, a description and readOnlyHint (but create_alert)', () => {
    expect([...tools.keys()].sort()).toEqual(Object.keys(GOOD_CALLS).sort());
    for (const t of tools.values()) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe('object');
      expect(t.inputSchema.additionalProperties, `${t.name}: arguments are closed`).toBe(false);
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(t.name !== 'create_alert');
      for (const [name, p] of Object.entries(t.inputSchema.properties ?? {})) expect((p as { description?: string }).description, `${t.name}.${name}`).toBeTruthy();
    }
  });
});

describe.each(Object.keys(GOOD_CALLS))('%s', (name) => {
  it('a good call: structuredContent valid against the outputSchema, and a text', async () => {
    await valid(name, GOOD_CALLS[name]);
  });

  it('a bad call: an isError result saying what to change, not a protocol error', async () => {
    const [args, message] = BAD_CALLS[name];
    expect(refusalOf(await call(name, args))).toMatch(message);
  });

  it('an unknown argument is refused by name', async () => {
    expect(refusalOf(await call(name, { ...GOOD_CALLS[name], colour: 'red' }))).toMatch(/Unrecognized key: "colour"/);
  });
});

describe('answers are the services\' (the same as REST)', () => {
  it('search_products: the ids and order of GET /v1/products/search', async () => {
    const r = await valid('search_products', { query: 'samsung galaxy', limit: 10 });
    const a = await rest('/v1/products/search?q=samsung%20galaxy&sort_by=relevance&limit=10');
    expect(r.items.map((i: { id: number }) => i.id)).toEqual(a.items.map((i: { id: number }) => i.id));
    expect(r.total).toBe(a.total);
  });

  it('search_products: country, price bounds in a currency, converted prices', async () => {
    const r = await valid('search_products', { query: 'galaxy a55', country: ['MY', 'US'], max_price: 400, currency: 'USD' });
    expect(r.items.map((i: { platform: string }) => i.platform).sort()).toEqual(['amazon_us', 'lazada_my']);
    for (const i of r.items) expect(i.converted_price.currency).toBe('USD');
    const none = await valid('search_products', { query: 'galaxy a55', country: ['SEA'], max_price: 10, currency: 'USD' });
    expect(none.total).toBe(0);
    expect(refusalOf(await call('search_products', { min_price: 10, max_price: 5 }))).toMatch(/min_price \(10\) is greater than max_price \(5\)/);
    const rated = await valid('search_products', { category: 'kitchen', sort: 'rating' });
    expect(rated.items.map((i: { rating: number }) => i.rating)).toEqual([4.4, 4.0]);
    const cheap = await valid('search_products', { query: 'galaxy a55', sort: 'price_asc', in_stock: true, brand: 'samsung' });
    expect(cheap.items.map((i: { id: number }) => i.id)).toEqual([3, 4, 1]);
  });

  it('best_price: the listing GET /v1/products/best-price answers', async () => {
    const r = await valid('best_price', { query: 'galaxy a55', currency: 'SGD' });
    expect(r.product.id).toBe((await rest('/v1/products/best-price?q=galaxy%20a55')).id);
    expect(r.product.converted_price.currency).toBe('SGD');
  });

  it('get_product: by id, UUID, SKU, GTIN (check digit verified) and product URL', async () => {
    const byId = await valid('get_product', { ref: '1' });
    expect(byId.resolved_as).toBe('id');
    expect(byId.offer_count).toBe(3);
    expect((await valid('get_product', { ref: byId.product.uuid })).resolved_as).toBe('uuid');
    expect((await valid('get_product', { ref: 'SG-A55' })).product.id).toBe(1);
    expect((await valid('get_product', { ref: '8806095426280' })).resolved_as).toBe('gtin');
    expect((await valid('get_product', { ref: 'https://shop.example.com/shopee_sg/SG-A55' })).resolved_as).toBe('url');
    expect(refusalOf(await call('get_product', { ref: '8806095426281' }))).toMatch(/No product has the id, UUID, SKU, barcode or URL/);
  });

  it('compare_offers: the matches of GET /v1/products/{id}/compare, the decision signals, highlights over every offer', async () => {
    const r = await valid('compare_offers', { ref: '1' });
    const a = await rest('/v1/products/1/compare');
    expect(r.matches.map((m: { id: number }) => m.id)).toEqual(a.matches.map((m: { id: number }) => m.id));
    expect(r.matches.map((m: { match_score: number }) => m.match_score)).toEqual(a.matches.map((m: { match_score: number }) => m.match_score));
    expect(r.product.signals).toMatchObject({ competitor_count: 2, data_freshness: 'fresh', is_available: true, availability_prediction: 'in_stock' });
    expect(r.highlights.cheapest).toMatchObject({ id: 3, platform: 'lazada_my', price: { amount: '1599.00', currency: 'MYR' } });
    expect(r.highlights.best_rated).toMatchObject({ id: 3, rating: 4.8 });
    expect(r.highlights.fastest_shipping).toMatchObject({ id: 4, shipping_days: 1 });
  });

  it('price_history: stats, the lowest price and when, the trend over the window', async () => {
    const r = await valid('price_history', { ref: 'SG-A55', days: 30 });
    expect(r).toMatchObject({
      currency: 'SGD', current_price: '499.00', stats: { min: '479.00', max: '549.00', data_points: 3 },
      lowest: { price: '479.00', at: '2026-11-10T10:00:00.000Z' },
      trend: { direction: 'down', change_pct: -9.11, from: { price: '549.00' }, to: { price: '499.00' } },
      last_change: 'up',
    });
    expect(r.daily.map((d: { day: string }) => d.day)).toEqual(['2026-11-01', '2026-11-10', '2026-11-20']);
    s.h.clock.advance(2 * 86400_000);
    try {
      const empty = await valid('price_history', { ref: '4', days: 1 });
      expect(empty).toMatchObject({ stats: null, lowest: null, trend: null, daily: [] });
    } finally {
      s.h.clock.advance(-2 * 86400_000);
    }
  });

  it('deals: GET /v1/deals\'s listings', async () => {
    const r = await valid('deals', { min_discount_pct: 10 });
    const a = await rest('/v1/deals?min_discount_pct=10');
    expect(r.items.map((i: { id: number }) => i.id)).toEqual(a.items.map((i: { id: number }) => i.id));
    expect(r.items[0]).toMatchObject({ sku: 'SG-KETTLE', reference_price: '79', discount_pct: 25.32 });
  });

  it('similar_products leaves the product\'s own group out', async () => {
    const r = await valid('similar_products', { ref: '1' });
    expect(r.items.map((i: { id: number }) => i.id)).not.toContain(3);
    expect(r.items.map((i: { id: number }) => i.id)).not.toContain(4);
  });

  it('categories: the tree, a subtree by slug, depth', async () => {
    const top = await valid('categories', { depth: 1 });
    expect(top.categories.map((c: { slug: string }) => c.slug).sort()).toEqual(['electronics', 'home-living']);
    expect(top.categories[0].children).toEqual([]);
    const under = await valid('categories', { parent: 'kitchen-appliances' });
    expect(under.parent.path).toEqual(['Home & Living', 'Kitchen Appliances']);
    expect(under.categories.map((c: { name: string }) => c.name).sort()).toEqual(['Kettles', 'Rice Cookers']);
  });

  it('batch_lookup: found in order, not found listed, duplicates once', async () => {
    const r = await valid('batch_lookup', { refs: ['US-A55', '1', 'NOPE', '1'], currency: 'EUR' });
    expect(r.results.map((x: { ref: string; resolved_as: string }) => [x.ref, x.resolved_as])).toEqual([['US-A55', 'sku'], ['1', 'id']]);
    expect(r.not_found).toEqual(['NOPE']);
    expect(r.results[0].product.converted_price.currency).toBe('EUR');
  });

  it('a fault in a service is an isError result with a generic message, not a crash or a leak', async () => {
    const deals = s.h.c.catalog.deals;
    s.h.c.catalog.deals = async () => { throw new Error('SQLITE_CORRUPT: secret detail'); };
    try {
      const text = refusalOf(await call('deals', {}));
      expect(text).toMatch(/internal error/);
      expect(text).not.toMatch(/secret/);
    } finally {
      s.h.c.catalog.deals = deals;
    }
  });
});

describe('resources and prompts', () => {
  it('the category tree and a product by URI template', async () => {
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('catalog://categories');
    expect((await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate)).toContain('catalog://products/{id}');
    const tree = await client.readResource({ uri: 'catalog://categories' });
    const cats = JSON.parse((tree.contents[0] as { text: string }).text).categories;
    expect(cats.find((c: { slug: string }) => c.slug === 'electronics').children.length).toBe(2);
    for (const ref of ['1', 'SG-A55']) {
      const p = await client.readResource({ uri: `catalog://products/${ref}` });
      expect(p.contents[0].mimeType).toBe('application/json');
      expect(JSON.parse((p.contents[0] as { text: string }).text)).toMatchObject({ id: 1, sku: 'SG-A55', variants: [] });
    }
    await expect(client.readResource({ uri: 'catalog://products/999999' })).rejects.toThrow(/No product has the id/);
  });

  it('prompts for the common tasks', async () => {
    expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['buy_now_or_wait', 'find_best_offer']);
    const p = await client.getPrompt({ name: 'find_best_offer', arguments: { product: 'galaxy a55', country: 'sg', budget: '500', currency: 'sgd' } });
    const text = (p.messages[0].content as { text: string }).text;
    expect(text).toMatch(/search_products with query "galaxy a55", country \["SG"\], max_price 500, currency "SGD"/);
    expect(text).toMatch(/compare_offers/);
    expect(text).toMatch(/price_history/);
    const w = await client.getPrompt({ name: 'buy_now_or_wait', arguments: { product: '1' } });
    expect((w.messages[0].content as { text: string }).text).toMatch(/price_history with days 90/);
  });
});

describe('alert tools act for the calling key', () => {
  it('create_alert sets an alert the key then sees over REST; list_alerts lists only the key\'s own', async () => {
    const made = await valid('create_alert', { product: '1', condition: { type: 'drop_percent', percent: 10 }, rearm: { quiet_period_seconds: 600 } });
    expect(made).toMatchObject({ status: 'armed', product: { id: 1 }, condition: { type: 'drop_percent', percent: '10', base_price: '499.00', threshold: '449.1' } });
    expect((await rest(`/v1/alerts/${made.id}`)).condition).toMatchObject({ type: 'drop_percent', percent: '10' });
    const listed = await valid('list_alerts', { limit: 100 });
    expect(listed.alerts.map((a: { id: string }) => a.id)).toContain(made.id);
    expect(listed).toMatchObject({ total: listed.alerts.length, max_active: 1000 });
    // Another key (another account) sees none of them.
    const other = await s.client({ requestInit: { headers: { authorization: `Bearer ${(await s.h.key('free')).key}` } } });
    const theirs = (await other.callTool({ name: 'list_alerts', arguments: {} })) as CallToolResult;
    expect(theirs.structuredContent).toMatchObject({ alerts: [], total: 0, max_active: 10 });
  });

  it('a key whose tier has no alerts is refused by the tool', async () => {
    const unverified = await s.client({ requestInit: { headers: { authorization: `Bearer ${(await s.h.key('unverified')).key}` } } });
    const r = (await unverified.callTool({ name: 'create_alert', arguments: KEY_GOOD_CALLS.create_alert })) as CallToolResult;
    expect(refusalOf(r)).toMatch(/Alerts need a verified key/);
  });
});
