import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { rec } from '../helpers/records.js';

/** The V2 agent endpoints (issue 21 items 1, 4, 5): rules, shapes and bad inputs. */
let h: Harness;
let auth: { authorization: string };
const id: Record<string, number> = {};

/** CATALOG, a price history for SG-A55, a second Singapore offer of the phone, a listing whose stock and rating are unknown. */
const EXTRA = [
  rec({ source: 'lazada_sg', sku: 'SG-A55-LZ', price: '489.00', gtin: '8806095426280', rating: 4.6, review_count: 900, shipping_days: 2, affiliate_url: 'https://aff.example.com/lz-a55', specs: { storage: '128GB' }, metadata: { colour: 'navy' } }),
  rec({ source: 'qoo10_sg', sku: 'SG-MYSTERY', title: 'Mystery gadget refurbished', brand: 'Acme', price: '35.00', category: 'Gadgets', category_path: ['Electronics', 'Gadgets'], in_stock: null, stock_level: null, rating: null, review_count: null, shipping_days: null }),
];

beforeAll(async () => {
  h = await makeHarness();
  await h.ingest([rec({ source: 'shopee_sg', sku: 'SG-A55', price: '529.00', gtin: '8806095426280', rating: 4.6, shipping_days: 3, observed_at: '2026-11-10T10:00:00.000Z' })]);
  await h.ingest([...CATALOG, ...EXTRA]);
  for (const r of [...CATALOG, ...EXTRA]) id[r.sku as string] = (await h.c.catalog.findBySku(r.sku as string))[0].id;
  auth = (await h.key('pro')).headers;
});
afterAll(async () => { await h.close(); });

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ url, headers: { ...auth, ...headers } });
const post = (url: string, payload: unknown) => h.app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
const session = (o: unknown) => ({ 'x-session-context': b64(o) });
type Rec = { id: number; sku: string; source: string; price: string; currency: string; [k: string]: unknown };
const skus = (r: { results: Rec[] }) => r.results.map((x) => x.sku);

/** A 422 in V2's validation envelope naming `field`. */
async function refused(res: Promise<{ statusCode: number; json(): unknown }>, field: string) {
  const r = await res;
  expect(r.statusCode).toBe(422);
  const body = r.json() as { error: { code: string; message: string; details: { errors: Array<{ field: string; message: string; type: string }> } } };
  expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
  expect(body.error.details.errors[0]).toMatchObject({ field, message: expect.any(String), type: expect.any(String) });
}

describe('GET /v2/agents/search', () => {
  it('answers query, total, limit (default 10), offset, has_more, next_cursor, applied and agent records', async () => {
    const r = (await get('/v2/agents/search?q=galaxy')).json();
    expect(Object.keys(r)).toEqual(['query', 'total', 'limit', 'offset', 'has_more', 'next_cursor', 'applied', 'results']);
    expect(r).toMatchObject({ query: 'galaxy', total: 5, limit: 10, offset: 0, has_more: false, next_cursor: null });
    const a55 = r.results.find((x: Rec) => x.sku === 'SG-A55');
    expect(a55).toMatchObject({ url: expect.any(String), affiliate_url: null, currency: 'SGD', price: '499.00', data_freshness: '2026-11-20T10:00:00.000Z', price_trend: 'down' });
    expect(a55).not.toHaveProperty('buy_url');
    expect(a55.confidence_score).toBeGreaterThanOrEqual(0);
    expect(a55.confidence_score).toBeLessThanOrEqual(1);
    for (const k of ['buybox_price', 'buybox_confidence', 'price_change_percentage', 'demand_score', 'seasonal_factor']) expect(a55).toHaveProperty(k);
    for (const k of ['availability_prediction', 'competitor_count', 'agent_insights', 'price_history']) expect(a55).not.toHaveProperty(k);
  });

  it('the four include switches add their fields; price history is in the response currency, oldest first', async () => {
    const r = (await get('/v2/agents/search?q=galaxy&source=shopee_sg&currency=MYR&include_agent_insights=true&include_price_history=true&include_availability_prediction=true&include_competitor_count=true')).json();
    const a55 = r.results.find((x: Rec) => x.sku === 'SG-A55');
    expect(a55).toMatchObject({ availability_prediction: 'in_stock', competitor_count: 3, currency: 'MYR' });
    expect(a55.agent_insights).toEqual({
      buybox_winner: false, value_score: expect.any(Number), recommendation_reason: expect.stringContaining('MYR 1599.00'),
      fake_discount: null, lowest_price_30d_before_discount: null,
    });
    expect(a55.price_history.map((p: { observed_at: string }) => p.observed_at)).toEqual(['2026-11-10T10:00:00.000Z', '2026-11-20T10:00:00.000Z']);
    expect(a55.price_history[1]).toEqual({ price: a55.price, currency: 'MYR', observed_at: '2026-11-20T10:00:00.000Z' });
  });

  it('decision signals: the buy box is the cheapest offer of the match group, in the response currency; trend from the stored history', async () => {
    const r = (await get('/v2/agents/search?q=galaxy%20a55&currency=MYR&include_agent_insights=true')).json();
    const by = Object.fromEntries(r.results.map((x: Rec) => [x.sku, x]));
    for (const sku of ['SG-A55', 'MY-A55', 'US-A55', 'SG-A55-LZ']) expect(by[sku].buybox_price).toBe('1599.00');
    expect(by['MY-A55'].agent_insights.buybox_winner).toBe(true);
    expect(by['SG-A55'].agent_insights.buybox_winner).toBe(false);
    expect(by['SG-A55']).toMatchObject({ price_trend: 'down', price_change_percentage: -5.67 });
    for (const x of r.results) {
      expect(x.buybox_confidence).toBeGreaterThan(0);
      expect(x.buybox_confidence).toBeLessThanOrEqual(1);
      expect(x.demand_score).toBeGreaterThanOrEqual(0);
      expect(x.demand_score).toBeLessThanOrEqual(1);
      expect(x.seasonal_factor).toBeNull(); // under 180 days of history
    }
  });

  it('a listing whose stock is unknown shows stock_level and availability_prediction null', async () => {
    const r = (await get('/v2/agents/search?q=mystery%20gadget&include_availability_prediction=true')).json();
    expect(r.results[0]).toMatchObject({ sku: 'SG-MYSTERY', in_stock: null, stock_level: null, availability_prediction: null, rating: null });
  });

  it('natural language: filler words go, a price phrase becomes a bound; explicit price parameters win over it', async () => {
    const r = (await get(`/v2/agents/search?q=${encodeURIComponent('I need a cheap samsung galaxy under 490 please')}`)).json();
    expect(r.applied).toMatchObject({ keywords: 'samsung galaxy', max_price: '490', currency: 'SGD' });
    expect(new Set(skus(r))).toEqual(new Set(['MY-A55', 'US-A55', 'SG-A55-LZ', 'SG-CASE']));
    const usd = (await get(`/v2/agents/search?q=${encodeURIComponent('galaxy under 380 usd')}`)).json();
    expect(usd.applied.max_price).toBe('484.44'); // 380 USD in SGD
    expect(skus(usd).sort()).toEqual(['MY-A55', 'SG-CASE', 'US-A55']);
    const explicit = (await get(`/v2/agents/search?q=${encodeURIComponent('galaxy under 490')}&max_price=500`)).json();
    expect(explicit.applied.max_price).toBe('500');
    expect(skus(explicit)).toContain('SG-A55');
  });

  it('sort_by: price_asc, price_desc, highest_rated, most_reviewed', async () => {
    const prices = (s: string) => get(`/v2/agents/search?q=galaxy&sort_by=${s}`).then((r) => r.json());
    const asc = await prices('price_asc');
    expect(asc.results.map((x: Rec) => Number(x.price_sgd))).toEqual([...asc.results.map((x: Rec) => Number(x.price_sgd))].sort((a, b) => a - b));
    expect(skus(await prices('price_desc'))[0]).toBe('SG-A55');
    expect(skus(await prices('highest_rated'))[0]).toBe('MY-A55');
    expect(skus(await prices('most_reviewed'))[0]).toBe('SG-A55-LZ');
    await refused(get('/v2/agents/search?q=galaxy&sort_by=rating'), 'sort_by');
  });

  it('budget and price bounds narrow together (the tighter of each end); min above max is refused', async () => {
    const r = (await get('/v2/agents/search?q=galaxy&min_price=400&budget_max=485')).json();
    expect(r.applied).toMatchObject({ min_price: '400', max_price: '485' });
    expect(skus(r).sort()).toEqual(['MY-A55', 'US-A55']);
    await refused(get('/v2/agents/search?q=galaxy&min_price=500&max_price=100'), 'min_price');
    await refused(get('/v2/agents/search?q=galaxy&budget_min=500&budget_max=100'), 'budget_min');
    await refused(get('/v2/agents/search?q=galaxy&budget_min=-1'), 'budget_min');
  });

  it('currency: default SGD, any V2 currency, anything else a 422 naming it', async () => {
    const r = (await get('/v2/agents/search?q=kettle&currency=THB')).json();
    expect(r.results[0]).toMatchObject({ currency: 'THB', price_sgd: '59.00' });
    await refused(get('/v2/agents/search?q=kettle&currency=EUR'), 'currency');
  });

  it('preferred sources come first without filtering the others; excluded sources never appear', async () => {
    const r = (await get('/v2/agents/search?q=galaxy&sort_by=price_asc&preferred_sources=amazon_us,shopee_sg')).json();
    expect(r.total).toBe(5);
    expect(skus(r).slice(0, 3)).toEqual(['SG-CASE', 'US-A55', 'SG-A55']);
    expect(skus(r).slice(3)).toEqual(['MY-A55', 'SG-A55-LZ']);
    const page2 = (await get('/v2/agents/search?q=galaxy&sort_by=price_asc&preferred_sources=amazon_us,shopee_sg&limit=2&offset=2')).json();
    expect(skus(page2)).toEqual(['SG-A55', 'MY-A55']);
    expect(page2).toMatchObject({ total: 5, has_more: true });
    const ex = (await get('/v2/agents/search?q=galaxy&excluded_sources=shopee_sg,Lazada_MY')).json();
    expect(ex.total).toBe(2);
    expect(ex.applied.excluded_sources).toEqual(['shopee_sg', 'lazada_my']);
    await refused(get('/v2/agents/search?q=galaxy&preferred_sources=shopee%20sg'), 'preferred_sources');
  });

  it('X-Session-Context: fills currency, budget and sources the query leaves unset; the query wins; exclusions add up', async () => {
    const ctx = session({ budget: { min: 0, max: 485 }, target_currency: 'usd', preferences: { preferred_sources: ['lazada_my'], excluded_sources: ['amazon_us'] } });
    const s = (await get('/v2/agents/search?q=galaxy&sort_by=price_asc', ctx)).json();
    expect(s.applied).toMatchObject({ currency: 'USD', min_price: '0', max_price: '485', preferred_sources: ['lazada_my'], excluded_sources: ['amazon_us'] });
    // the budget is in the response currency (USD here): 485 USD lets every remaining phone through
    expect(skus(s)).toEqual(['MY-A55', 'SG-CASE', 'SG-A55-LZ', 'SG-A55']);
    expect(s.results[0].currency).toBe('USD');
    const q = (await get('/v2/agents/search?q=galaxy&sort_by=price_asc&currency=SGD&budget_max=1000&preferred_sources=shopee_sg&excluded_sources=lazada_sg', ctx)).json();
    expect(q.applied).toMatchObject({ currency: 'SGD', max_price: '1000', preferred_sources: ['shopee_sg'], excluded_sources: ['lazada_sg', 'amazon_us'] });
    expect(skus(q)).toEqual(['SG-CASE', 'SG-A55', 'MY-A55']);
    // a source preferred and excluded is excluded
    const both = (await get('/v2/agents/search?q=galaxy&preferred_sources=amazon_us', ctx)).json();
    expect(both.applied.preferred_sources).toEqual([]);
    expect(skus(both)).not.toContain('US-A55');
    // the budget's ends combine across query and session; an impossible pair names budget_min
    await refused(get('/v2/agents/search?q=galaxy&budget_min=600', ctx), 'budget_min');
  });

  it.each([
    ['not base64 of JSON', 'bm90IGpzb24'], ['an array', b64([1])], ['a negative budget', b64({ budget: { max: -5 } })],
    ['a currency outside V2', b64({ target_currency: 'EUR' })], ['sources not an array', b64({ preferences: { excluded_sources: 'amazon_us' } })],
  ])('a malformed X-Session-Context (%s) is a 422 naming the header', async (_what, raw) => {
    await refused(get('/v2/agents/search?q=galaxy', { 'x-session-context': raw }), 'X-Session-Context');
  });

  it('cursor: next_cursor walks the pages offset would; it wins over offset; a bad or foreign cursor is a 422 naming it', async () => {
    const seen: string[] = [];
    let url = '/v2/agents/search?q=galaxy&sort_by=price_asc&limit=2';
    for (let i = 0; i < 5; i++) {
      const r = (await get(url)).json();
      seen.push(...skus(r));
      expect(r.has_more).toBe(r.next_cursor !== null);
      if (!r.next_cursor) break;
      url = `/v2/agents/search?q=galaxy&sort_by=price_asc&limit=2&offset=4&cursor=${r.next_cursor}`;
    }
    expect(seen).toEqual(skus((await get('/v2/agents/search?q=galaxy&sort_by=price_asc')).json()));
    await refused(get('/v2/agents/search?q=galaxy&cursor=@@@'), 'cursor');
    await refused(get(`/v2/agents/search?q=galaxy&cursor=${Buffer.from('{"o":-1,"f":"x"}').toString('base64url')}`), 'cursor');
    const first = (await get('/v2/agents/search?q=galaxy&limit=1')).json();
    await refused(get(`/v2/agents/search?q=kettle&limit=1&cursor=${first.next_cursor}`), 'cursor');
  });

  it('bounds: q required, 1 to 500 characters; limit 1 to 100; unknown parameters refused', async () => {
    await refused(get('/v2/agents/search'), 'q');
    await refused(get('/v2/agents/search?q='), 'q');
    await refused(get(`/v2/agents/search?q=${'a'.repeat(501)}`), 'q');
    await refused(get('/v2/agents/search?q=galaxy&limit=0'), 'limit');
    await refused(get('/v2/agents/search?q=galaxy&limit=101'), 'limit');
    await refused(get('/v2/agents/search?q=galaxy&offset=10001'), 'offset');
    await refused(get('/v2/agents/search?q=galaxy&budget=5'), 'budget');
  });
});

describe('GET /v2/agents/price-comparison and /v2/agents/best-price', () => {
  it('price comparison: results by price in the currency asked, highlights of cheapest, best rated and fastest shipping', async () => {
    const r = (await get('/v2/agents/price-comparison?product_name=galaxy%20a55&category=smartphones&currency=MYR')).json();
    expect(Object.keys(r)).toEqual(['query', 'total', 'limit', 'results', 'highlights']);
    expect(r).toMatchObject({ query: 'galaxy a55', total: 4, limit: 20 });
    const prices = r.results.map((x: Rec) => new Big(x.price));
    prices.slice(1).forEach((p: Big, i: number) => expect(p.gte(prices[i])).toBe(true));
    expect(r.results.every((x: Rec) => x.currency === 'MYR')).toBe(true);
    expect(r.highlights).toEqual({
      cheapest: { id: id['MY-A55'], source: 'lazada_my', price: '1599.00', currency: 'MYR' },
      best_rated: { id: id['MY-A55'], source: 'lazada_my', rating: 4.8 },
      fastest_shipping: { id: id['US-A55'], source: 'amazon_us', shipping_days: 1 },
    });
  });

  it('highlights tolerate results without a rating or shipping time: those members are null', async () => {
    const r = (await get('/v2/agents/price-comparison?product_name=mystery%20gadget')).json();
    expect(r.highlights).toEqual({ cheapest: { id: id['SG-MYSTERY'], source: 'qoo10_sg', price: '35.00', currency: 'SGD' }, best_rated: null, fastest_shipping: null });
  });

  it('nothing matching is 404 NOT_FOUND in the V2 envelope; bad inputs are 422s', async () => {
    const none = await get('/v2/agents/price-comparison?product_name=zzzz');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('zzzz') });
    await refused(get('/v2/agents/price-comparison'), 'product_name');
    await refused(get('/v2/agents/price-comparison?product_name=a55&limit=101'), 'limit');
    await refused(get('/v2/agents/price-comparison?product_name=a55&currency=JPY'), 'currency');
  });

  it('best price: the cheapest first, default limit 5 (1 to 50); nothing matching is an empty 200', async () => {
    const r = (await get('/v2/agents/best-price?product_name=samsung%20galaxy%20a55&limit=2')).json();
    // The phone's case is cheaper, but a product's name is answered with the product (docs/ranking.md).
    expect(r).toMatchObject({ query: 'samsung galaxy a55', total: 4, limit: 2 });
    expect(skus(r)).not.toContain('SG-CASE');
    expect(new Big(r.results[0].price).lte(new Big(r.results[1].price))).toBe(true);
    expect((await get('/v2/agents/best-price?product_name=galaxy')).json().limit).toBe(5);
    expect((await get('/v2/agents/best-price?product_name=zzzz')).json()).toEqual({ query: 'zzzz', total: 0, limit: 5, results: [] });
    await refused(get('/v2/agents/best-price?product_name=galaxy&limit=51'), 'limit');
  });
});

describe('GET /v2/agents/explore', () => {
  it('the same seed gives the same page; pages of one seed do not overlap', async () => {
    const a = (await get('/v2/agents/explore?seed=42&limit=3')).json();
    expect(Object.keys(a)).toEqual(['total', 'limit', 'offset', 'has_more', 'seed', 'results']);
    expect(a).toMatchObject({ total: 8, limit: 3, offset: 0, has_more: true, seed: 42 });
    expect((await get('/v2/agents/explore?seed=42&limit=3')).json().results).toEqual(a.results);
    const next = (await get('/v2/agents/explore?seed=42&limit=3&offset=3')).json();
    const ids = [...a.results, ...next.results].map((x: Rec) => x.id);
    expect(new Set(ids).size).toBe(6);
    expect(ids).toEqual((await get('/v2/agents/explore?seed=42&limit=6')).json().results.map((x: Rec) => x.id));
  });

  it('without a seed one is chosen and returned, and passing it back repeats the page', async () => {
    const a = (await get('/v2/agents/explore?limit=4&currency=USD')).json();
    expect(a.seed).toBeGreaterThanOrEqual(1);
    expect(a.results.every((x: Rec) => x.currency === 'USD')).toBe(true);
    expect((await get(`/v2/agents/explore?limit=4&currency=USD&seed=${a.seed}`)).json().results).toEqual(a.results);
  });

  it('category narrows the draw; bounds are refused', async () => {
    const r = (await get('/v2/agents/explore?category=kitchen&seed=7')).json();
    expect(r.total).toBe(2);
    expect(skus(r).sort()).toEqual(['12345', 'SG-KETTLE']);
    expect(r.has_more).toBe(false);
    await refused(get('/v2/agents/explore?seed=0'), 'seed');
    await refused(get('/v2/agents/explore?offset=1001'), 'offset');
    await refused(get('/v2/agents/explore?limit=101'), 'limit');
  });
});

describe('GET /v2/agents/trending', () => {
  it('groups trending listings by category, the category with more first, each in trending order', async () => {
    // The trending rule (docs/ranking.md): listings whose price fell this week; here SG-A55 (529 -> 499).
    const r = (await get('/v2/agents/trending?limit=2')).json();
    expect(Object.keys(r)).toEqual(['category', 'total', 'categories']);
    expect(r.category).toBeNull();
    expect(r.total).toBe(1);
    expect(r.categories).toHaveLength(1);
    expect(r.categories[0]).toMatchObject({ category: 'Smartphones', count: 1 });
    expect(r.categories[0].results.map((x: Rec) => x.sku)).toEqual(['SG-A55']);
    const none = (await get('/v2/agents/trending?category=kitchen&categories=1')).json();
    expect(none).toMatchObject({ category: 'kitchen', total: 0, categories: [] });
    await refused(get('/v2/agents/trending?categories=51'), 'categories');
  });
});

describe('POST /v2/agents/compare-matrix', () => {
  const phones = () => [id['SG-A55'], id['MY-A55'], id['US-A55'], id['SG-A55-LZ']];

  it('the compare diff shape in the target currency: ranks by price, exact spread, differing and identical fields', async () => {
    const r = (await post('/v2/agents/compare-matrix', { product_ids: [...phones(), 999999], target_currency: 'USD' })).json();
    expect(Object.keys(r)).toEqual(['products', 'field_diffs', 'identical_fields', 'cheapest_product_id', 'most_expensive_product_id',
      'price_spread', 'price_spread_currency', 'price_spread_pct', 'not_found']);
    expect(Object.keys(r.products[0])).toEqual(['id', 'title', 'price', 'price_rank', 'currency', 'rating', 'review_count', 'source']);
    const byRank = [...r.products].sort((a, b) => a.price_rank - b.price_rank);
    byRank.slice(1).forEach((p, i) => expect(new Big(p.price).gte(new Big(byRank[i].price))).toBe(true));
    expect(r.cheapest_product_id).toBe(byRank[0].id);
    expect(r.most_expensive_product_id).toBe(byRank[3].id);
    const spread = new Big(byRank[3].price).minus(byRank[0].price);
    expect(r).toMatchObject({ price_spread: spread.toFixed(2), price_spread_currency: 'USD', not_found: [999999] });
    expect(r.price_spread_pct).toBe(Number(spread.div(byRank[0].price).times(100).round(2).toFixed(2)));
    expect(r.field_diffs.map((f: { field: string }) => f.field)).toEqual(expect.arrayContaining(['title', 'source', 'price']));
    expect(r.identical_fields).toEqual(expect.arrayContaining(['brand', 'currency', 'barcode', 'category']));
    const price = r.field_diffs.find((f: { field: string }) => f.field === 'price');
    expect(price.values).toEqual(r.products.map((p: Rec) => p.price));
  });

  it('include_fields limits what is compared', async () => {
    const r = (await post('/v2/agents/compare-matrix', { product_ids: phones(), include_fields: ['brand', 'rating'] })).json();
    expect(r.field_diffs.map((f: { field: string }) => f.field)).toEqual(['rating']);
    expect(r.identical_fields).toEqual(['brand']);
    await refused(post('/v2/agents/compare-matrix', { product_ids: phones(), include_fields: ['brand', 'colour'] }), 'include_fields.1');
  });

  it('2 to 50 ids; fewer than 2 found is 404 NOT_FOUND naming the missing; a non-V2 currency is refused', async () => {
    await refused(post('/v2/agents/compare-matrix', { product_ids: [id['SG-A55']] }), 'product_ids');
    await refused(post('/v2/agents/compare-matrix', { product_ids: Array.from({ length: 51 }, (_, i) => i + 1) }), 'product_ids');
    await refused(post('/v2/agents/compare-matrix', { product_ids: [1, 'x'] }), 'product_ids.1');
    await refused(post('/v2/agents/compare-matrix', { product_ids: phones(), target_currency: 'GBP' }), 'target_currency');
    const missing = await post('/v2/agents/compare-matrix', { product_ids: [id['SG-A55'], 999998] });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'NOT_FOUND', details: { not_found: [999998] } });
    const fifty = await post('/v2/agents/compare-matrix', { product_ids: [...phones(), ...Array.from({ length: 46 }, (_, i) => 900000 + i)] });
    expect(fifty.statusCode).toBe(200);
    expect(fifty.json().not_found).toHaveLength(46);
  });
});

describe('POST /v2/agents/bulk-compare', () => {
  it('results by price, total_products, and the cheapest, best rated and best value in comparison_summary', async () => {
    const r = (await post('/v2/agents/bulk-compare', { product_ids: [id['SG-A55'], id['SG-KETTLE'], id['MY-A55'], id['SG-MYSTERY'], 999999], target_currency: 'MYR' })).json();
    expect(Object.keys(r)).toEqual(['results', 'total_products', 'comparison_summary', 'not_found']);
    expect(skus(r)).toEqual(['SG-MYSTERY', 'SG-KETTLE', 'MY-A55', 'SG-A55']);
    expect(r.total_products).toBe(4);
    expect(r.results[0]).toMatchObject({ currency: 'MYR', url: expect.any(String), data_freshness: expect.any(String), competitor_count: 0, buybox_price: r.results[0].price });
    // the kettle is out of stock: no offer, so no buy box and no value score
    expect(r.results[1]).toMatchObject({ sku: 'SG-KETTLE', buybox_price: null, agent_insights: { buybox_winner: false, value_score: null } });
    const best = [...r.results].filter((x) => x.agent_insights.value_score !== null).sort((a, b) => b.agent_insights.value_score - a.agent_insights.value_score)[0];
    expect(r.comparison_summary).toEqual({
      cheapest_product: { id: id['SG-MYSTERY'], title: 'Mystery gadget refurbished', price: r.results[0].price, currency: 'MYR', source: 'qoo10_sg' },
      best_rated_product: { id: id['MY-A55'], title: expect.any(String), rating: 4.8, source: 'lazada_my' },
      best_value_product: { id: best.id, title: best.title, value_score: best.agent_insights.value_score, reason: best.agent_insights.recommendation_reason },
    });
    expect(best.sku).toBe('MY-A55');
    expect(r.not_found).toEqual([999999]);
  });

  it('include_fields keeps id and the fields chosen; nothing found gives an object of nulls', async () => {
    const r = (await post('/v2/agents/bulk-compare', { product_ids: [id['SG-A55'], id['MY-A55']], include_fields: ['price', 'source'] })).json();
    expect(r.results).toEqual([{ id: id['MY-A55'], source: 'lazada_my', price: '483.73' }, { id: id['SG-A55'], source: 'shopee_sg', price: '499.00' }]);
    const none = (await post('/v2/agents/bulk-compare', { product_ids: [999999] })).json();
    expect(none).toEqual({ results: [], total_products: 0, comparison_summary: { cheapest_product: null, best_rated_product: null, best_value_product: null }, not_found: [999999] });
  });

  it('at most 50 ids, at least 1; a non-V2 currency is refused', async () => {
    await refused(post('/v2/agents/bulk-compare', { product_ids: [] }), 'product_ids');
    await refused(post('/v2/agents/bulk-compare', { product_ids: Array.from({ length: 51 }, (_, i) => i + 1) }), 'product_ids');
    await refused(post('/v2/agents/bulk-compare', { product_ids: [1], target_currency: 'IDR' }), 'target_currency');
    await refused(post('/v2/agents/bulk-compare', { product_ids: [1], include_fields: ['id'] }), 'include_fields.0');
  });
});

describe('POST /v2/agents/batch-lookup', () => {
  it('records in the order asked, each once, one error per id not found, total and has_more', async () => {
    const r = (await post('/v2/agents/batch-lookup', { product_ids: [id['SG-A55-LZ'], 999999, id['SG-A55'], id['SG-A55-LZ']], target_currency: 'PHP' })).json();
    expect(Object.keys(r)).toEqual(['results', 'total', 'has_more', 'errors']);
    expect(r.results.map((x: Rec) => x.id)).toEqual([id['SG-A55-LZ'], id['SG-A55']]);
    expect(r).toMatchObject({ total: 2, has_more: false, errors: [{ product_id: 999999, code: 'NOT_FOUND', message: 'Product 999999 not found.' }] });
    expect(r.results[0]).toMatchObject({ currency: 'PHP', price_sgd: '489.00', affiliate_url: 'https://aff.example.com/lz-a55', url: expect.any(String) });
    expect(r.results[0]).not.toHaveProperty('metadata_');
    expect(r.results[0]).not.toHaveProperty('price_history');
  });

  it('affiliate_links false empties affiliate_url; include_metadata and include_price_history add their fields', async () => {
    const r = (await post('/v2/agents/batch-lookup', { product_ids: [id['SG-A55-LZ'], id['SG-A55']], affiliate_links: false, include_metadata: true, include_price_history: true })).json();
    expect(r.results[0]).toMatchObject({ affiliate_url: null, specs: { storage: '128GB' }, metadata_: { colour: 'navy' } });
    expect(r.results[1].price_history.map((p: { price: string }) => p.price)).toEqual(['529.00', '499.00']);
  });

  it('at most 100 ids; body fields are named by their path', async () => {
    await refused(post('/v2/agents/batch-lookup', { product_ids: Array.from({ length: 101 }, (_, i) => i + 1) }), 'product_ids');
    await refused(post('/v2/agents/batch-lookup', { product_ids: [1, -2] }), 'product_ids.1');
    await refused(post('/v2/agents/batch-lookup', { product_ids: [1], affiliate_links: 'yes' }), 'affiliate_links');
    await refused(post('/v2/agents/batch-lookup', { product_ids: [1], target_currency: 'EUR' }), 'target_currency');
  });
});

describe('every agent route', () => {
  it.each([
    ['GET', '/v2/agents/search?q=galaxy'], ['GET', '/v2/agents/price-comparison?product_name=galaxy'], ['GET', '/v2/agents/best-price?product_name=galaxy'],
    ['GET', '/v2/agents/explore'], ['GET', '/v2/agents/trending'], ['POST', '/v2/agents/compare-matrix'], ['POST', '/v2/agents/bulk-compare'],
    ['POST', '/v2/agents/batch-lookup'],
  ])('%s %s needs a key and answers 401 in the V2 envelope', async (method, url) => {
    const r = await h.app.inject({ method: method as 'GET' | 'POST', url, ...(method === 'POST' ? { payload: { product_ids: [1, 2] } } : {}) });
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('a browser may send X-Session-Context (CORS preflight)', async () => {
    const r = await h.app.inject({
      method: 'OPTIONS', url: '/v2/agents/search',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,x-session-context' },
    });
    expect(r.statusCode).toBe(204);
    expect(String(r.headers['access-control-allow-headers'])).toMatch(/X-Session-Context/);
  });

  it('is in /openapi.json with its response schema', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    for (const [path, method] of [['/v2/agents/search', 'get'], ['/v2/agents/price-comparison', 'get'], ['/v2/agents/best-price', 'get'], ['/v2/agents/explore', 'get'],
      ['/v2/agents/trending', 'get'], ['/v2/agents/compare-matrix', 'post'], ['/v2/agents/bulk-compare', 'post'], ['/v2/agents/batch-lookup', 'post']]) {
      expect(doc.paths[path]?.[method]?.responses?.['200'], `${method} ${path}`).toBeDefined();
    }
    expect(JSON.stringify(doc.paths['/v2/agents/search'].get.parameters)).toContain('x-session-context');
  });
});

describe('price_history against the year the signals read', () => {
  it('shows the last 30 days only, while price_trend still reads the older prices', async () => {
    const hh = await makeHarness();
    hh.clock.set('2026-09-01T12:00:00.000Z');
    await hh.ingest([rec({ sku: 'OLD', price: '600.00', observed_at: '2026-09-01T10:00:00.000Z' })]);
    hh.clock.set('2026-11-15T12:00:00.000Z');
    await hh.ingest([rec({ sku: 'OLD', price: '500.00', observed_at: '2026-11-15T10:00:00.000Z' })]);
    hh.clock.set('2026-11-20T12:00:00.000Z');
    const headers = { ...(await hh.key('pro')).headers, 'content-type': 'application/json' };
    const [l] = await hh.c.catalog.findBySku('OLD');
    const r = (await hh.app.inject({ method: 'POST', url: '/v2/agents/batch-lookup', headers, payload: { product_ids: [l.id], include_price_history: true } })).json();
    expect(r.results[0].price_history.map((p: { observed_at: string }) => p.observed_at)).toEqual(['2026-11-15T10:00:00.000Z']);
    expect(r.results[0].price_trend).toBe('down');
    await hh.close();
  });
});
