import SwaggerParser from '@apidevtools/swagger-parser';
import AjvModule from 'ajv';
import formatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogEvent } from '../../src/domain/events.js';
import { eventPayload, testPayload } from '../../src/domain/webhooks.js';
import { makeHarness, type Harness } from '../helpers/app.js';

type Schema = Record<string, unknown>;
interface Parameter { in: string; name: string; required: boolean; description?: string; schema: Schema }
interface Response { description: string; content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }
interface Operation { summary?: string; description?: string; tags?: string[]; parameters?: Parameter[]; responses: Record<string, Response>; security?: unknown[]; requestBody?: unknown }
interface Document { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> }; parameters: Parameter[] } }>; openapi: string; info: { description: string }; tags: Array<{ name: string }>; paths: Record<string, Record<string, Operation>>; 'x-tagGroups': Array<{ tags: string[] }> }

/** Served on purpose without an operation: the reference page and its script (the CORS preflight is no route of the index). */
// The two pages and their assets: HTML for people, not operations.
const HIDDEN = ['GET /docs/', 'GET /docs/js/scalar.js', 'GET /', 'GET /page/app.js', 'GET /page/render.js', 'GET /page/style.css'];
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** GETs answered 200 without an entity tag, so never 304 (docs/sync.md): streams and a no-store secret. */
const UNTAGGED = ['GET /v1/products/export', 'GET /v2/products/stream', 'GET /v2/prices/stream', 'GET /demo/key'];

let h: Harness;
let doc: Document;

beforeAll(async () => {
  h = await makeHarness();
  doc = (await h.app.inject({ url: '/openapi.json' })).json();
});
afterAll(() => h.close());

const operations = () => Object.entries(doc.paths).flatMap(([path, ops]) =>
  METHODS.filter((m) => ops[m]).map((m) => ({ key: `${m.toUpperCase()} ${path}`, path, method: m, op: ops[m] })));

describe('/openapi.json', () => {
  it('documents exactly the routes the app serves, but the hidden ones', () => {
    const served = new Set(h.app.routeIndex.list().map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`));
    // A HEAD twin answers as its GET does: documented by the GET.
    for (const key of [...served]) if (key.startsWith('HEAD ') && served.has(`GET ${key.slice(5)}`)) served.delete(key);
    for (const hidden of HIDDEN) expect(served.delete(hidden), hidden).toBe(true);
    expect(new Set(operations().map((o) => o.key))).toEqual(served);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('names the surface of every operation, and every tag is in a group', () => {
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const { key, op } of operations()) {
      expect(op.tags?.length, key).toBeGreaterThan(0);
      for (const t of op.tags!) expect(tags.has(t), `${key}: ${t}`).toBe(true);
    }
    expect(new Set(doc['x-tagGroups'].flatMap((g) => g.tags))).toEqual(tags);
  });

  it('gives every operation a success or redirect answer and the error statuses it can send, each with a body schema', () => {
    const errorOnly = new Set(['GET /v1/oauth/authorize', 'GET /mcp', 'DELETE /mcp']);
    for (const { key, op } of operations()) {
      const statuses = Object.keys(op.responses);
      if (!errorOnly.has(key)) expect(statuses.some((s) => /^[23]/.test(s)), key).toBe(true);
      expect(statuses, key).toContain('500');
      for (const s of statuses.filter((x) => /^[45]/.test(x))) expect(op.responses[s].content?.['application/json']?.schema, `${key} ${s}`).toBeDefined();
      // Authenticated: refused without a key and counted against a limit.
      if (op.security?.length !== 0) expect(statuses, key).toEqual(expect.arrayContaining(['401', '429']));
      // A tagged 200 answers a matching If-None-Match with 304: declared, with no body, where a GET answers 200 with a tag.
      const conditional = key.startsWith('GET ') && statuses.includes('200') && !UNTAGGED.includes(key);
      expect(statuses.includes('304'), `${key} 304`).toBe(conditional);
      if (conditional) {
        expect(op.responses['304'].content, `${key} 304`).toBeUndefined();
        expect(op.responses['304'].headers, `${key} 304`).toHaveProperty('ETag');
        expect(op.responses['200'].headers, `${key} 200`).toHaveProperty('ETag');
      }
    }
    expect(Object.keys(doc.paths['/v1/products'].get.responses)).toContain('304');
    expect(Object.keys(doc.paths['/v1/products/export'].get.responses)).not.toContain('304');
    expect(Object.keys(doc.paths['/v1/search'].get.responses)).not.toContain('404');
    expect(Object.keys(doc.paths['/v2/products/{id}'].get.responses)).toContain('404');
    expect(Object.keys(doc.paths['/v1/products/bulk-lookup'].post.responses)).toEqual(expect.arrayContaining(['403', '413', '415']));
    expect(doc.paths['/v1/products/{ref}/compare'].get.responses['404'].content!['application/json'].schema).toMatchObject({ required: ['detail'] });
  });

  it('declares 304 on exactly the GETs that answer it: each documented GET asked with If-None-Match: *', async () => {
    await h.ingest([{ source: 'shopee_sg', sku: 'REF-304', title: 'Samsung Galaxy A55 5G 128GB', price: '499.00', currency: 'SGD',
      url: 'https://shopee.sg/ref-304', category: 'Smartphones', observed_at: '2026-11-20T10:00:00.000Z' }]);
    const listing = (await h.c.store.catalog.getBySku('REF-304'))[0];
    const { headers } = await h.key('enterprise');
    const asked: string[] = [];
    for (const { key, path, op } of operations()) {
      // Streams never end by themselves: their 304 is checked above by the list of untagged GETs.
      if (!key.startsWith('GET ') || path.endsWith('/stream')) continue;
      const url = path.replace(/\{(ref|id)\}/, String(listing.id));
      if (url.includes('{')) continue;
      const res = await h.app.inject({ url, headers: { ...headers, 'if-none-match': '*' } });
      // Only an answer that would be a 200 says whether the route tags it.
      if (res.statusCode !== 200 && res.statusCode !== 304) continue;
      asked.push(key);
      expect(res.statusCode === 304, `${key}: answered ${res.statusCode}`).toBe(op.responses['304'] !== undefined);
      if (res.statusCode === 304) {
        expect(res.body, key).toBe('');
        if (op.security?.length !== 0) expect(res.headers, key).toHaveProperty('x-ratelimit-limit');
      }
    }
    // Enough of the API to mean something: the listings, details, search, reference, account and the export.
    expect(asked).toEqual(expect.arrayContaining(['GET /v1/products', 'GET /v1/products/{ref}', 'GET /v2/products/{id}', 'GET /v1/search',
      'GET /openapi.json', 'GET /v1/auth/me', 'GET /v1/products/export']));
  });

  it('lists the real values of every parameter: a default never required, enums complete', () => {
    for (const { key, op } of operations()) {
      for (const p of op.parameters ?? []) {
        if (p.schema.default !== undefined) expect(p.required, `${key} ${p.name}`).toBe(false);
        expect(JSON.stringify(p.schema), `${key} ${p.name}: an enum, not a union of constants`).not.toMatch(/"const"/);
      }
    }
    const sort = doc.paths['/v2/agents/search'].get.parameters!.find((p) => p.name === 'sort_by')!;
    expect(sort.schema).toMatchObject({ enum: ['relevance', 'price_asc', 'price_desc', 'newest', 'highest_rated', 'most_reviewed'], default: 'relevance' });
    expect(sort.required).toBe(false);
    const tier = JSON.stringify(doc.paths['/v1/admin/keys/{key}/tier'].post.requestBody);
    expect(tier).toContain('"enum":["unverified","free","basic","pro","enterprise"]');
  });

  it('documents a shared /v1 path once, with both shapes, the rule and the Catalog-Surface header', () => {
    expect(Object.keys(doc.paths).filter((p) => p.includes('#'))).toEqual([]);
    const search = doc.paths['/v1/products/search'].get;
    expect(search.tags).toEqual(['surface A', 'surface B']);
    expect(search.description).toContain('sort_by, price_min, price_max, platform, in_stock, include_facets');
    expect(search.parameters!.find((p) => p.name === 'Catalog-Surface')).toMatchObject({ in: 'header', required: false, schema: { enum: ['A', 'B'] } });
    const ok = search.responses['200'].content!['application/json'].schema as { oneOf: Schema[] };
    expect(ok.oneOf.map((s) => s.title)).toEqual(['surface A', 'surface B']);
    // B requires q, A does not: not required on the shared path, and said so.
    const q = search.parameters!.find((p) => p.name === 'q')!;
    expect(q.required).toBe(false);
    expect(q.description).toContain('Required on surface B');
    const compare = doc.paths['/v1/products/compare'].get.parameters!;
    expect(compare.find((p) => p.name === 'ids')!.description).toMatch(/^Surface B only \(required there\)/);
    expect(doc.paths['/v1/products/{ref}'].get.tags).toEqual(['surface A', 'surface B']);
  });

  it('documents streams, CSV, the redirect, MCP, and raw bodies with their media types', () => {
    expect(Object.keys(doc.paths['/v2/prices/stream'].get.responses['200'].content!)).toEqual(['text/event-stream']);
    expect(Object.keys(doc.paths['/v1/products/export'].get.responses['200'].content!)).toEqual(['application/json', 'text/csv']);
    expect(doc.paths['/v1/click/{token}'].get.responses['302'].headers).toHaveProperty('location');
    expect(JSON.stringify(doc.paths['/mcp'].post.requestBody)).toContain('jsonrpc');
    expect(Object.keys((doc.paths['/v1/ingest/products'].post.requestBody as { content: object }).content)).toContain('application/x-ndjson');
    expect(Object.keys((doc.paths['/v1/oauth/token'].post.requestBody as { content: object }).content)).toContain('application/x-www-form-urlencoded');
  });

  it('carries the rate-limit headers on counted answers, and the guide as its introduction', () => {
    const ok = doc.paths['/v1/search'].get.responses;
    expect(Object.keys(ok['200'].headers!)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'RateLimit']));
    expect(ok['429'].headers).toHaveProperty('Retry-After');
    // Not counted: only its entity tag.
    expect(Object.keys(doc.paths['/health'].get.responses['200'].headers!)).toEqual(['ETag']);
    for (const heading of ['## Three surfaces', '## Authentication', '## Rate limits', '## Errors', '## Real time', 'standardwebhooks']) {
      expect(doc.info.description).toContain(heading);
    }
  });
});

describe('webhooks in /openapi.json', () => {
  // CommonJS modules seen from ESM: the constructor and the plugin are their default members.
  const Ajv = AjvModule as unknown as typeof AjvModule.default;
  const addFormats = formatsModule as unknown as typeof formatsModule.default;
  const listing = {
    id: 7, uuid: 'b33707c9-b9bf-54e4-a9ba-add292050ea9', title: 'Widget', price: '450.00', currency: 'SGD' as const, priceSgd: '450.00',
    source: 'shopee_sg', category: null, categoryPath: null, countryCode: 'SG', inStock: false, url: 'https://www.shop.example.com/w', updatedAt: 't',
  };
  const event = (change: CatalogEvent['change']): CatalogEvent => ({ id: 9, listingId: 7, createdAt: '2026-11-20T10:00:00.000Z', change });

  it('describe every body the service signs and sends, with the Standard Webhooks headers', () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const sent: Record<string, string> = {
      price_change: eventPayload(event({ kind: 'price_change', listing, oldPrice: '500.00', newPrice: '450.00', oldPriceSgd: '500.00', changePct: -10 }))!,
      stock_change: eventPayload(event({ kind: 'stock_change', listing, oldInStock: true, newInStock: false, oldStockLevel: 'low', newStockLevel: null }))!,
      alert_fired: eventPayload(event({
        kind: 'alert_fired', listing, alertId: 'a1', firingId: 'f1', accountId: 3, triggerEventId: 8, rearms: true,
        condition: { type: 'drop_percent', percent: '10', basePrice: '500.00', baseCurrency: 'SGD' },
      }))!,
      test: testPayload('sub_1', '2026-11-20T10:00:00.000Z'),
    };
    expect(Object.keys(doc.webhooks)).toEqual(Object.keys(sent));
    for (const [name, body] of Object.entries(sent)) {
      const hook = doc.webhooks[name].post;
      const validate = ajv.compile(hook.requestBody.content['application/json'].schema);
      expect(validate(JSON.parse(body)), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(hook.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
  });
});

describe('/docs', () => {
  it('serves the reference page and its script from the service, no CDN, without a key', async () => {
    const bare = await h.app.inject({ url: '/docs' });
    expect([bare.statusCode, bare.headers.location]).toEqual([301, '/docs/']);
    const page = await h.app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('/openapi.json');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    const script = await h.app.inject({ url: '/docs/js/scalar.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
  });
});

describe('/llms.txt', () => {
  it('indexes the API from the reference: key, documents, MCP and every operation, without a key', async () => {
    const r = await h.app.inject({ url: '/llms.txt' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    const origin = h.c.origin();
    for (const line of [`POST ${origin}/v1/auth/register?verify=false`, `${origin}/openapi.json`, `${origin}/docs`, `POST ${origin}/mcp`, '`npx catalog mcp`', '## surface A', '## surface B', '## v2']) {
      expect(r.body).toContain(line);
    }
    for (const { path, method, op } of operations()) expect(r.body, `${method} ${path}`).toContain(`- ${method.toUpperCase()} ${path}: ${op.summary}`);
  });

  it('answers while the service is starting, like the reference', async () => {
    const starting = await makeHarness();
    try {
      const { headers } = await starting.key();
      starting.c.readiness.starting('loading the demo catalog');
      expect((await starting.app.inject({ url: '/llms.txt' })).statusCode).toBe(200);
      expect((await starting.app.inject({ url: '/openapi.json' })).statusCode).toBe(200);
      expect((await starting.app.inject({ url: '/v1/search?q=x', headers })).statusCode).toBe(503);
    } finally {
      await starting.close();
    }
  });
});
