import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/** POST /v1/products/ingest (issue 20 item 7): JSON ingestion over the same service as NDJSON. */
let h: Harness;
let pro: { authorization: string };
let free: { authorization: string };
beforeAll(async () => {
  h = await makeHarness();
  pro = (await h.key('pro')).headers;
  free = (await h.key('free')).headers;
  // As serve does: the tail clears cached answers when events arrive.
  await h.c.tail.start();
});
afterAll(async () => { await h.close(); });

const post = (body: unknown, headers: Record<string, string> = pro) =>
  h.app.inject({ method: 'POST', url: '/v1/products/ingest', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
/** An ingest record without its source: the envelope gives it. */
const product = (over: Record<string, unknown> = {}) => {
  const { source: _source, ...r } = rec(over);
  return { ...r, ...over };
};

describe('POST /v1/products/ingest', () => {
  it('stores the good products and reports the bad ones by index; each takes the envelope source unless it has its own', async () => {
    const before = await h.app.inject({ url: '/v1/products/search?q=quokka', headers: pro });
    expect(before.json().total).toBe(0);
    const r = await post({
      source: 'Lazada_SG',
      products: [
        product({ sku: 'QK-1', title: 'Quokka Travel Mug 450ml', price: '24.90' }),
        product({ sku: 'QK-2', title: 'Quokka Travel Mug 600ml', currency: 'XYZ' }),
        product({ sku: 'QK-3', title: 'Quokka Lunch Box', source: 'shopee_sg' }),
        'not an object',
        product({ sku: 'QK-4', title: 'Quokka Flask', price: undefined }),
        product({ sku: 'QK-5', title: 'Quokka Flask Large', source: '' }),
      ],
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      ingested: 3, updated: 0, unchanged: 0, skipped: 3,
      errors: [
        { index: 1, field: 'currency', message: 'unsupported currency XYZ' },
        { index: 3, field: '(record)', message: 'each product must be a JSON object' },
        { index: 4, field: 'price', message: expect.stringContaining('required') },
      ],
    });
    const stored = Object.fromEntries((await Promise.all(['QK-1', 'QK-3', 'QK-5'].map((s) => h.c.catalog.findBySku(s)))).map((l) => [l[0].sku, l[0].source]));
    expect(stored).toEqual({ 'QK-1': 'lazada_sg', 'QK-3': 'shopee_sg', 'QK-5': 'lazada_sg' });
    // The writing process read its event tail before answering: no cached answer outlives the write.
    expect((await h.app.inject({ url: '/v1/products/search?q=quokka', headers: pro })).json().total).toBe(3);
  });

  it('the same products again count as unchanged; a changed one as updated; a new one as ingested', async () => {
    const r = await post({
      source: 'lazada_sg',
      products: [
        product({ sku: 'QK-1', title: 'Quokka Travel Mug 450ml', price: '24.90' }),
        product({ sku: 'QK-5', title: 'Quokka Flask Large', price: '39.00', observed_at: '2026-11-21T10:00:00.000Z' }),
        product({ sku: 'QK-6', title: 'Quokka Straw Set' }),
      ],
    });
    expect(r.json()).toEqual({ ingested: 1, updated: 1, unchanged: 1, skipped: 0, errors: [] });
    expect((await h.c.catalog.findBySku('QK-5'))[0].price).toBe('39.00');
  });

  it('a product too large for a line is refused alone; the ones after it are stored', async () => {
    const r = await post({
      source: 'lazada_sg',
      products: [product({ sku: 'QK-BIG', specs: { notes: 'x'.repeat(1_000_001) } }), product({ sku: 'QK-AFTER' })],
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ ingested: 1, skipped: 1, errors: [{ index: 0, field: '(record)', message: expect.stringContaining('larger than') }] });
    expect(await h.c.catalog.findBySku('QK-AFTER')).toHaveLength(1);
  });

  it('1,000 products are taken; more, none, or no products array is a 422 naming the field', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => product({ sku: `BULK-${i}`, title: `Bulk Item ${i}` }));
    const ok = await post({ source: 'lazada_sg', products: many });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ingested: 1000, skipped: 0 });

    const tooMany = await post({ source: 'lazada_sg', products: [...many, product({ sku: 'BULK-1000' })] });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().detail[0]).toMatchObject({ loc: ['body', 'products'], type: 'too_long' });
    expect(await h.c.catalog.findBySku('BULK-1000')).toHaveLength(0);

    expect((await post({ source: 'lazada_sg', products: [] })).json().detail[0]).toMatchObject({ loc: ['body', 'products'], type: 'too_short' });
    expect((await post({ source: 'lazada_sg' })).json().detail[0]).toMatchObject({ loc: ['body', 'products'], type: 'missing' });
  });

  it('a source that is not a platform key, or an unknown envelope member, is a 422 naming it', async () => {
    for (const [body, loc] of [
      [{ source: { name: 'x' }, products: [product()] }, ['body', 'source']],
      [{ source: ['lazada_sg', 'shopee_sg'], products: [product()] }, ['body', 'source']],
      [{ source: 'lazada_sg', products: { sku: 'x' } }, ['body', 'products']],
      [{ source: 'not a key!', products: [product()] }, ['body', 'source']],
      [{ source: '', products: [product()] }, ['body', 'source']],
      [{ source: 'lazada_sg', products: [product()], merchant: 'x' }, ['body', 'merchant']],
    ] as const) {
      const r = await post(body);
      expect(r.statusCode, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(r.json().detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    }
  });

  it('free keys get 403 INSUFFICIENT_SCOPE whatever the body; no key is 401; a bad body 400; an oversized one 413', async () => {
    for (const body of [{ source: 'lazada_sg', products: [product()] }, { nothing: true }]) {
      const r = await post(body, free);
      expect(r.statusCode).toBe(403);
      expect(r.json().error.code).toBe('INSUFFICIENT_SCOPE');
    }
    expect((await post({ source: 'lazada_sg', products: [product()] }, {})).statusCode).toBe(401);
    const broken = await h.app.inject({ method: 'POST', url: '/v1/products/ingest', headers: { ...pro, 'content-type': 'application/json' }, payload: '{"products": [' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('BAD_REQUEST');
    const huge = await post({ source: 'lazada_sg', products: [product({ description: 'y'.repeat(9 * 1024 * 1024) })] });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('is listed in the OpenAPI document with its body and answer', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    const op = doc.paths['/v1/products/ingest'].post;
    expect(Object.keys(op.requestBody.content['application/json'].schema.properties)).toEqual(['source', 'products']);
    expect(Object.keys(op.responses['200'].content['application/json'].schema.properties)).toEqual(['ingested', 'updated', 'unchanged', 'skipped', 'errors']);
  });
});
