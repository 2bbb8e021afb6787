import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing } from '../../src/domain/listing.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { rec } from '../helpers/records.js';

/** POST /v1/products/bulk-lookup (issue 20 item 5): up to 100 references of any form, each answered or listed as unresolved. */
let h: Harness;
let pro: { authorization: string };
const L: Record<string, Listing> = {};
const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;

beforeAll(async () => {
  h = await makeHarness();
  await h.ingest([
    ...CATALOG,
    // The A55's GTIN is shared by three listings; this one, stored as its GTIN-14, is the most recently updated.
    rec({ source: 'qoo10_sg', sku: 'Q-A55', gtin: '0 8806095426280', observed_at: at(21), url: 'https://www.qoo10.sg/item/GALAXY-A55/1122' }),
    rec({ source: 'shopee_sg', sku: 'TRACKED', title: 'Tracked Lamp', url: 'https://shopee.sg/lamp-i.9.9?sp_atk=abc&utm_source=feed' }),
    rec({ source: 'lazada_sg', sku: 'EAN8', title: 'Tiny Widget', brand: 'Widgetco', gtin: '96385074', url: 'https://www.lazada.sg/products/tiny-widget-i42.html' }),
  ]);
  for (const r of [...CATALOG, rec({ source: 'qoo10_sg', sku: 'Q-A55' }), rec({ source: 'lazada_sg', sku: 'EAN8' }), rec({ source: 'shopee_sg', sku: 'TRACKED' })]) {
    const [l] = (await h.c.catalog.findBySku(r.sku as string)).filter((x) => x.source === r.source);
    L[r.sku as string] = l;
  }
  pro = (await h.key('pro')).headers;
});
afterAll(async () => { await h.close(); });

const lookup = (body: unknown, headers: Record<string, string> = pro) => h.app.inject({ method: 'POST', url: '/v1/products/bulk-lookup', headers, payload: body as object });

describe('bulk lookup', () => {
  it('resolves every form, in the order sent: id, UUID, SKU, GTIN, URL; says which input and form each item answers', async () => {
    const ids = [String(L['SG-KETTLE'].id), L['SG-CASE'].uuid.toUpperCase(), 'MY-A55', '96385074', 'https://www.lazada.sg/products/tiny-widget-i42.html'];
    const r = await lookup({ ids });
    expect(r.statusCode).toBe(200);
    const b = r.json();
    expect(Object.keys(b)).toEqual(['items', 'unresolved', 'total', 'response_time_ms']);
    expect(b.items.map((i: { input: string; matched_as: string; product: { id: string } }) => [i.input, i.matched_as, i.product.id])).toEqual([
      [ids[0], 'id', L['SG-KETTLE'].uuid], [ids[1], 'uuid', L['SG-CASE'].uuid], [ids[2], 'sku', L['MY-A55'].uuid],
      [ids[3], 'gtin', L.EAN8.uuid], [ids[4], 'url', L.EAN8.uuid],
    ]);
    expect(b).toMatchObject({ unresolved: [], total: 5 });
    // The B record of spec 2.3, in the listing's own currency without `currency`.
    expect(b.items[2].product).toMatchObject({ title: expect.any(String), price: { amount: 1599, currency: 'MYR' }, merchant: 'shop.example.com', region: 'MY', metadata: { sku: 'MY-A55' } });
  });

  it('a GTIN in any form (spaces, dashes, UPC-A, GTIN-14) with a valid check digit finds the most recently updated listing carrying it', async () => {
    const b = (await lookup({ ids: ['8806095426280', '08806095426280', '880-6095-42628-0', '00000096385074', '000096385074'] })).json();
    expect(b.items.map((i: { matched_as: string }) => i.matched_as)).toEqual(['gtin', 'gtin', 'gtin', 'gtin', 'gtin']);
    expect(b.items.slice(0, 3).map((i: { product: { id: string } }) => i.product.id)).toEqual([L['Q-A55'].uuid, L['Q-A55'].uuid, L['Q-A55'].uuid]);
    expect(b.items[3].product.id).toBe(L.EAN8.uuid);
    expect(b.items[4].product.id).toBe(L.EAN8.uuid);
  });

  it('a wrong check digit, an unknown URL, SKU, id or UUID is listed as unresolved, never dropped', async () => {
    const ids = ['8806095426281', 'https://shop.example.com/nowhere', 'NO-SUCH-SKU', '999999', '00000000-0000-4000-8000-000000000000', 'MY-A55', 'ftp://x.example.com/a'];
    const b = (await lookup({ ids })).json();
    expect(b.items.map((i: { input: string }) => i.input)).toEqual(['MY-A55']);
    expect(b.unresolved).toEqual(['8806095426281', 'https://shop.example.com/nowhere', 'NO-SUCH-SKU', '999999', '00000000-0000-4000-8000-000000000000', 'ftp://x.example.com/a']);
    expect(b.total).toBe(1);
  });

  it('a URL matches the same page however it was copied: scheme, www, host case, trailing slash, fragment, tracking parameters, no scheme', async () => {
    const variants = [
      'http://qoo10.sg/item/GALAXY-A55/1122/', 'https://WWW.Qoo10.sg/item/GALAXY-A55/1122#reviews', 'https://www.qoo10.sg/item/GALAXY-A55/1122?utm_medium=x&gclid=1',
      'www.qoo10.sg/item/GALAXY-A55/1122', 'https://shop.example.com/shopee_sg/SG-A55/',
    ];
    const b = (await lookup({ ids: variants })).json();
    expect(b.unresolved).toEqual([]);
    expect(b.items.map((i: { matched_as: string; product: { id: string } }) => [i.matched_as, i.product.id])).toEqual([
      ...variants.slice(0, 4).map(() => ['url', L['Q-A55'].uuid]), ['url', L['SG-A55'].uuid],
    ]);
    // Another page of the same host is another product: the path and the other parameters count.
    const other = (await lookup({ ids: ['https://www.qoo10.sg/item/galaxy-a55/1122', 'https://www.qoo10.sg/item/GALAXY-A55/1122?opt=2'] })).json();
    expect(other.items).toEqual([]);
    expect(other.unresolved).toHaveLength(2);
  });

  it('a URL stored with parameters is found by those parameters, as stored or with its tracking ones and the scheme varied', async () => {
    const b = (await lookup({ ids: ['https://shopee.sg/lamp-i.9.9?sp_atk=abc&utm_source=feed', 'http://www.shopee.sg/lamp-i.9.9/?sp_atk=abc&utm_source=feed', 'https://shopee.sg/lamp-i.9.9?sp_atk=abc'] })).json();
    expect(b.items.map((i: { product: { id: string } }) => i.product.id)).toEqual([L.TRACKED.uuid, L.TRACKED.uuid]);
    // Documented limit: the stored URL's own tracking parameters are not guessed.
    expect(b.unresolved).toEqual(['https://shopee.sg/lamp-i.9.9?sp_atk=abc']);
  });

  it('digits: an id first, then a SKU, then a GTIN', async () => {
    // "12345" is no id in this catalog but the SKU of the rice cooker; "1" is listing 1.
    const b = (await lookup({ ids: ['12345', '1', String(L['SG-KETTLE'].id), '96385074'] })).json();
    expect(b.items.map((i: { matched_as: string; product: { id: string } }) => [i.matched_as, i.product.id])).toEqual([
      ['sku', L['12345'].uuid], ['id', (await h.c.catalog.findById(1))!.uuid], ['id', L['SG-KETTLE'].uuid], ['gtin', L.EAN8.uuid],
    ]);
  });

  it('an integer id may be sent as a JSON number (answered as its text)', async () => {
    const b = (await lookup({ ids: [L['SG-KETTLE'].id] })).json();
    expect(b.items).toEqual([{ input: String(L['SG-KETTLE'].id), matched_as: 'id', product: expect.objectContaining({ id: L['SG-KETTLE'].uuid }) }]);
  });

  it('a repeated reference is answered once; currency converts every price shown', async () => {
    const b = (await lookup({ ids: ['MY-A55', 'MY-A55', 'US-A55', 'MY-A55'], currency: 'SGD' })).json();
    expect(b.items.map((i: { input: string }) => i.input)).toEqual(['MY-A55', 'US-A55']);
    expect(b.items.every((i: { product: { price: { currency: string } } }) => i.product.price.currency === 'SGD')).toBe(true);
    expect(b.total).toBe(2);
  });

  it('takes 100 references, mixed, in a few reads', async () => {
    const forms = [String(L['SG-KETTLE'].id), L['SG-CASE'].uuid, 'MY-A55', '8806095426280', 'www.lazada.sg/products/tiny-widget-i42.html'];
    const ids = Array.from({ length: 100 }, (_, i) => (i < forms.length ? forms[i] : `MISSING-${i}`));
    const b = (await lookup({ ids })).json();
    expect(b.total).toBe(5);
    expect(b.unresolved).toHaveLength(95);
    expect(b.items.map((i: { matched_as: string }) => i.matched_as)).toEqual(['id', 'uuid', 'sku', 'gtin', 'url']);
  });

  it('bad bodies are 422 naming the field: no ids, empty ids, more than 100, a blank or overlong reference, an unknown member or currency', async () => {
    const cases: Array<[unknown, Array<string | number>]> = [
      [{}, ['body', 'ids']], [{ ids: [] }, ['body', 'ids']], [{ ids: Array.from({ length: 101 }, (_, i) => `S${i}`) }, ['body', 'ids']],
      [{ ids: ['MY-A55', '  '] }, ['body', 'ids', 1]], [{ ids: ['x'.repeat(2049)] }, ['body', 'ids', 0]], [{ ids: ['MY-A55', ''] }, ['body', 'ids', 1]],
      [{ ids: ['MY-A55'], limit: 5 }, ['body']], [{ ids: ['MY-A55'], currency: 'XYZ' }, ['body', 'currency']], [{ ids: [{ sku: 'x' }] }, ['body', 'ids', 0]],
    ];
    for (const [body, loc] of cases) {
      const r = await lookup(body);
      expect(r.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(r.json().detail[0].loc.slice(0, loc.length), JSON.stringify(body).slice(0, 80)).toEqual(loc);
    }
  });

  it('pro and enterprise only: a free key is 403 INSUFFICIENT_SCOPE, no key 401', async () => {
    const free = await lookup({ ids: ['MY-A55'] }, (await h.key('free')).headers);
    expect(free.statusCode).toBe(403);
    expect(free.json().error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await lookup({ ids: ['MY-A55'] }, (await h.key('enterprise')).headers)).statusCode).toBe(200);
    const none = await lookup({ ids: ['MY-A55'] }, {});
    expect(none.statusCode).toBe(401);
  });

  it('is in the reference under surface B', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { tags: string[] }>> };
    expect(doc.paths['/v1/products/bulk-lookup'].post.tags).toEqual(['surface B']);
  });
});
