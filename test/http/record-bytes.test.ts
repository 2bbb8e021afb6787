import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordBytes, recordsAnswer } from '../../src/api/record-bytes.js';
import { presentProduct } from '../../src/api/v1a/present.js';
import { ProductRecord, ProductsSearchResponse, SearchResponse } from '../../src/api/v1a/responses.js';
import { presentRecord as presentBRecord } from '../../src/api/v1b/present.js';
import { SearchResponse as BSearchResponse } from '../../src/api/v1b/responses.js';
import { BulkLookupResponse } from '../../src/api/v1b/bulk-lookup-routes.js';
import { pickFields, presentAgentRecord } from '../../src/api/v2/agent-present.js';
import { BatchLookupResponse, BulkCompareResponse } from '../../src/api/v2/agent-responses.js';
import { presentBatchRecord, presentListRecord } from '../../src/api/v2/present.js';
import { BatchDetailsResponse, ListRecord, SearchResponse as V2SearchResponse } from '../../src/api/v2/responses.js';
import { ListingView } from '../../src/catalog/listing-views.js';
import type { Listing } from '../../src/domain/listing.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

let h: Harness;
let auth: { authorization: string };
let listings: Listing[];
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest([
    rec({ sku: 'RB-1', title: 'Zorblax Phone 128GB', description: 'Thai "quoted" ข้อความ\u2028 and a backslash \\' }),
    rec({ sku: 'RB-2', title: 'Zorblax Phone 256GB', price: '599.00', source: 'lazada_sg' }),
    rec({ sku: 'RB-3', title: 'Zorblax Case', price: '19.90', specs: { colour: 'red' } }),
  ]);
  auth = (await h.key('pro')).headers;
  listings = (await h.c.store.catalog.search({ text: 'zorblax', filter: {}, sort: 'newest', limit: 10, offset: 0 })).listings;
});
afterAll(() => h.close());

const SEARCH_ENVELOPE = { total: 7, limit: 20, offset: 0, has_more: true };

/** A server whose one route answers `envelope` with `views()`'s records, by RecordBytes or by the schema's serializer. */
async function server(records: RecordBytes, views: () => ListingView[], spliced: boolean, shape: Shape = {
  schema: SearchResponse, envelope: SEARCH_ENVELOPE, present: presentProduct,
}) {
  const app = Fastify();
  app.get('/page', { schema: { response: { 200: shape.schema } } }, async (_req, reply) =>
    (spliced ? records.page(reply, { ...shape.envelope, items: [] }, 'items', views()) : { ...shape.envelope, items: views().map(shape.present) }));
  await app.ready();
  return app;
}

interface Shape { schema: TSchema; envelope: Record<string, unknown>; present: (v: ListingView) => unknown }

describe('RecordBytes', () => {
  it('writes the bytes the route serializer writes for the same answer', async () => {
    const now = h.clock.now();
    const views = () => listings.map((l, i) => new ListingView(l, i, i === 1 ? { amount: '12.34', currency: 'USD' } : null, now));
    const records = new RecordBytes(presentProduct, ProductRecord);
    const [spliced, serialized] = [await server(records, views, true), await server(records, views, false)];
    for (let round = 0; round < 2; round++) {
      const [a, b] = [await spliced.inject('/page'), await serialized.inject('/page')];
      expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
      expect(a.headers['content-type']).toBe(b.headers['content-type']);
      expect(a.json().items).toHaveLength(3);
    }
    const empty = await server(records, () => [], true);
    expect((await empty.inject('/page')).json()).toEqual({ total: 7, limit: 20, offset: 0, has_more: true, items: [] });
  });

  it('splices records into the middle of an envelope, and for V2 records, as the serializer writes them', async () => {
    const now = h.clock.now();
    const views = () => listings.map((l) => new ListingView(l, 2, null, now));
    const shapes: Array<[RecordBytes, Shape]> = [
      [new RecordBytes(presentProduct, ProductRecord), {
        schema: ProductsSearchResponse, present: presentProduct,
        // Members after the records, and a highlight whose text holds the member's own key.
        envelope: { total: 3, total_count: 3, limit: 20, offset: 0, has_more: false, next_cursor: null, facets: null, highlights: { 1: '"items":[]' } },
      }],
      [new RecordBytes(presentListRecord, ListRecord), { schema: V2SearchResponse, present: presentListRecord, envelope: { query: 'zorblax', ...SEARCH_ENVELOPE } }],
    ];
    for (const [records, shape] of shapes) {
      const [a, b] = [await (await server(records, views, true, shape)).inject('/page'), await (await server(records, views, false, shape)).inject('/page')];
      expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
      expect(a.json().items).toHaveLength(3);
    }
  });

  it('presents a listing again only when its object or its stamp changes, and tags the page from its parts', async () => {
    let presented = 0;
    const records = new RecordBytes((v) => (presented++, presentProduct(v)), ProductRecord);
    let views = listings.map((l) => new ListingView(l, 1, null, h.clock.now()));
    const app = await server(records, () => views, true);
    const first = await app.inject('/page');
    expect(presented).toBe(3);
    const again = await app.inject('/page');
    expect(presented).toBe(3);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);

    // Another group size for one listing: that record alone is made again, and the tag moves.
    views = views.map((v, i) => (i === 0 ? new ListingView(v.listing, 4, null, h.clock.now()) : v));
    const counted = await app.inject('/page');
    expect(presented).toBe(4);
    expect(counted.json().items[0].competitor_count).toBe(4);
    expect(counted.headers.etag).not.toBe(first.headers.etag);

    // A listing read again (a new object, a new price): its record follows the object.
    views = views.map((v, i) => (i === 1 ? new ListingView({ ...v.listing, price: '1.00' }, 1, null, h.clock.now()) : v));
    const repriced = await app.inject('/page');
    expect(presented).toBe(5);
    expect(repriced.json().items[1].price).toBe('1.00');

    // Forty days on, every listing is very stale: the time-dependent members change with the tier.
    const later = new Date(h.clock.now().getTime() + 40 * 86_400_000);
    views = views.map((v) => new ListingView(v.listing, v.competitorCount, null, later));
    const stale = (await app.inject('/page')).json();
    expect(presented).toBe(8);
    expect(stale.items.map((i: { data_freshness: string; is_available: boolean }) => [i.data_freshness, i.is_available]))
      .toEqual([['very_stale', false], ['very_stale', false], ['very_stale', false]]);
  });
});

describe('RecordBytes pages', () => {
  it('answers the same envelope and records with the bytes made the first time; any change makes them again', async () => {
    const records = new RecordBytes(presentProduct, ProductRecord);
    let views = listings.map((l) => new ListingView(l, 1, null, h.clock.now()));
    let envelope: Record<string, unknown> = SEARCH_ENVELOPE;
    const made: Buffer[] = [];
    const app = Fastify();
    app.get('/page', { schema: { response: { 200: SearchResponse } } }, async (req, reply) => {
      const extra = (req.query as { extra?: string }).extra ? () => ',"x":1' : undefined;
      const bytes = records.page(reply, { ...envelope, items: [] }, 'items', views, extra);
      made.push(bytes);
      return bytes;
    });
    await app.ready();
    const first = await app.inject('/page');
    const again = await app.inject('/page');
    expect(made[1]).toBe(made[0]);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);

    views = views.map((v, i) => (i === 2 ? new ListingView(v.listing, 5, null, h.clock.now()) : v));
    const counted = await app.inject('/page');
    expect(made[2]).not.toBe(made[1]);
    expect(counted.json().items[2].competitor_count).toBe(5);
    expect(counted.headers.etag).not.toBe(first.headers.etag);

    envelope = { ...SEARCH_ENVELOPE, total: 8 };
    expect((await app.inject('/page')).json().total).toBe(8);
    expect(made[3]).not.toBe(made[2]);

    // Members made per request are never answered from a kept page.
    await app.inject('/page?extra=1');
    await app.inject('/page?extra=1');
    expect(made[5]).not.toBe(made[4]);
    expect(made[5].equals(made[4])).toBe(true);

    // A page over 64 KB is not kept: bounded memory whatever pages clients ask for.
    views = Array.from({ length: 80 }, (_, i) => new ListingView(listings[i % listings.length], 1, null, h.clock.now()));
    await app.inject('/page');
    await app.inject('/page');
    expect(made[6].length).toBeGreaterThan(64 * 1024);
    expect(made[7]).not.toBe(made[6]);
    expect(made[7].equals(made[6])).toBe(true);
  });
});

describe('RecordBytes with members added per request (surface B search: each result\'s click_url)', () => {
  it('writes what the serializer writes for the record with the member added last, and tags only a tagging route', async () => {
    const now = h.clock.now();
    const views = listings.map((l, i) => new ListingView(l, 1, i === 2 ? { amount: '15.00', currency: 'USD' } : null, now));
    const link = (v: ListingView) => `https://catalog.example/v1/click/t${v.listing.id}?job_id="q"`;
    const records = new RecordBytes(presentBRecord, BSearchResponse.properties.results.items);
    const envelope = { total: 3, page: { limit: 20, offset: 0 }, response_time_ms: 4, cached: false };
    const app = Fastify();
    const schema = { response: { 200: BSearchResponse } };
    app.get('/spliced', { schema, config: { etag: false } }, async (_req, reply) =>
      records.page(reply, { results: [], ...envelope }, 'results', views, (v) => `,"click_url":${JSON.stringify(link(v))}`));
    app.get('/tagged', { schema }, async (_req, reply) => records.page(reply, { results: [], ...envelope }, 'results', views, (v) => `,"click_url":${JSON.stringify(link(v))}`));
    app.get('/serialized', { schema }, async () => ({ results: views.map((v) => Object.assign(presentBRecord(v), { click_url: link(v) })), ...envelope }));
    await app.ready();
    const [a, b] = [await app.inject('/spliced'), await app.inject('/serialized')];
    expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
    expect(a.json().results.map((r: { click_url: string }) => r.click_url)).toEqual(views.map(link));
    expect(a.headers.etag).toBeUndefined();
    expect((await app.inject('/tagged')).headers.etag).toMatch(/^"[\w-]+"$/);
  });
});

describe('recordsAnswer (the batch lookups)', () => {
  it('writes the bytes the route serializer writes for each batch answer, records with non-Latin text and members around them', async () => {
    const now = h.clock.now();
    const views = listings.map((l, i) => new ListingView(l, i, i === 1 ? { amount: '12.34', currency: 'USD' } : null, now));
    const agents = (await h.c.agents.lookup(listings.map((l) => l.id), 'SGD', true)).items;
    const all = { availability: true, competitors: true, insights: true, metadata: true };
    const shapes: Array<{ schema: TSchema; field: string; envelope: Record<string, unknown>; records: unknown[] }> = [
      { schema: BatchLookupResponse, field: 'results', envelope: { total: 3, has_more: false, errors: [{ product_id: 9, code: 'NOT_FOUND', message: 'Product 9 not found.' }] },
        records: agents.map((a) => presentAgentRecord(a, all)) },
      { schema: BulkCompareResponse, field: 'results', envelope: { total_products: 3, comparison_summary: { cheapest_product: null, best_rated_product: null, best_value_product: null }, not_found: [] },
        records: agents.map((a) => pickFields(presentAgentRecord(a, all), ['title', 'description', 'price', 'agent_insights'])) },
      { schema: BatchDetailsResponse, field: 'results', envelope: { errors: [] }, records: views.map((v) => presentBatchRecord(v, { metadata: true })) },
      { schema: BulkLookupResponse, field: 'items', envelope: { unresolved: ['"items":[]'], total: 3, response_time_ms: 1 },
        records: views.map((v) => ({ input: v.listing.sku, matched_as: 'sku', product: presentBRecord(v) })) },
    ];
    for (const shape of shapes) {
            const app = Fastify();
      app.get('/spliced', { schema: { response: { 200: shape.schema } } }, async (_req, reply) =>
        recordsAnswer(reply, { ...shape.envelope, [shape.field]: [] }, shape.field, shape.records));
      app.get('/serialized', { schema: { response: { 200: shape.schema } } }, async () => ({ ...shape.envelope, [shape.field]: shape.records }));
      await app.ready();
      const [a, b] = [await app.inject('/spliced'), await app.inject('/serialized')];
      expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
      expect(a.headers['content-type']).toBe(b.headers['content-type']);
      expect(a.json()[shape.field]).toHaveLength(3);
      expect(a.body).toContain('ข้อความ');
    }
  });
});

describe('GET /v1/search answered from kept records', () => {
  const get = (url: string, extra: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers: { ...auth, ...extra } });

  it('changes its answer and its tag when a listing of the page changes', async () => {
    const before = await get('/v1/search?q=zorblax');
    expect(before.json().items.map((i: { sku: string }) => i.sku).sort()).toEqual(['RB-1', 'RB-2', 'RB-3']);
    expect((await get('/v1/search?q=zorblax', { 'if-none-match': before.headers.etag as string })).statusCode).toBe(304);
    await h.ingest([rec({ sku: 'RB-3', title: 'Zorblax Case', price: '17.50', specs: { colour: 'red' }, observed_at: '2026-11-20T11:00:00.000Z' })]);
    const after = await get('/v1/search?q=zorblax', { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().items.find((i: { sku: string }) => i.sku === 'RB-3').price).toBe('17.50');
  });
});
