import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { rec } from '../helpers/records.js';
import { expectValidOutput, serveSeeded, type Served } from '../mcp/setup.js';

/**
 * Honest deals (docs/deals.md) on every deals surface: Surface A /v1/deals, Surface B
 * /v1/products/deals, the MCP deals tool and the V2 agent insights. The clock stands at
 * 2026-11-20T12:00Z.
 */
const item = (sku: string, title: string, price: string, at: string, original?: string) =>
  rec({ source: 'shopee_sg', sku, title, brand: 'Acme', category: 'Kitchen', category_path: ['Home', 'Kitchen'], gtin: null, price, observed_at: at, ...(original ? { original_price: original } : {}) });

// Charged 100.00 (90.00 for three weeks), then 80.00 against a "was" of 100.00: honest.
const HONEST = ([['100.00', '2026-07-01'], ['90.00', '2026-08-20'], ['100.00', '2026-09-10'], ['80.00', '2026-11-01']] as const)
  .map(([price, day]) => item('SG-HONEST', 'Acme Honest Kettle', price, `${day}T00:00:00.000Z`, '100.00'));
// Never above 85.00, now "70.00, was 150.00": flagged.
const FAKE = [
  item('SG-FAKE', 'Acme Fake Blender', '80.00', '2026-07-01T00:00:00.000Z'), item('SG-FAKE', 'Acme Fake Blender', '85.00', '2026-10-01T00:00:00.000Z'),
  item('SG-FAKE', 'Acme Fake Blender', '70.00', '2026-11-10T00:00:00.000Z', '150.00'),
];
// First seen 19 days ago at a discount: too little history to say.
const SHORT = [item('SG-SHORT', 'Acme Short Toaster', '60.00', '2026-11-01T00:00:00.000Z', '120.00')];

let s: Served;
let auth: { authorization: string };
let client: Client;
let tools: Tool[];
beforeAll(async () => {
  s = await serveSeeded();
  for (const r of [...HONEST, ...FAKE, ...SHORT]) await s.h.ingest([r]);
  auth = (await s.h.key('pro')).headers;
  client = await s.client();
  tools = (await client.listTools()).tools;
}, 60_000);
afterAll(async () => { await s.close(); });

type Rec = Record<string, unknown>;
const get = (url: string) => s.h.app.inject({ method: 'GET', url, headers: auth });
const bySku = (items: Rec[], key = 'sku') => Object.fromEntries(items.map((i) => [i[key], i]));

describe('Surface A GET /v1/deals', () => {
  it('shows the 30-day low before the discount and the flag on each deal', async () => {
    const body = (await get('/v1/deals?min_discount_pct=5')).json();
    const by = bySku(body.items);
    expect(by['SG-HONEST']).toMatchObject({
      original_price: '100.00', discount_started_at: '2026-11-01T00:00:00.000Z', lowest_price_30d_before_discount: '100.00', fake_discount: false,
    });
    expect(by['SG-FAKE']).toMatchObject({ original_price: '150.00', discount_started_at: null, lowest_price_30d_before_discount: null, fake_discount: true });
    // The kettle of the shared catalog is below its own median but has no original price: nothing to check.
    expect(by['SG-KETTLE']).toMatchObject({ original_price: null, discount_started_at: null, lowest_price_30d_before_discount: null, fake_discount: null });
  });

  it('exclude_fake_discounts=true leaves flagged deals out; total and has_more follow', async () => {
    const all = (await get('/v1/deals?min_discount_pct=5')).json();
    const kept = (await get('/v1/deals?min_discount_pct=5&exclude_fake_discounts=true')).json();
    expect(kept.items.map((i: Rec) => i.sku)).toEqual(all.items.map((i: Rec) => i.sku).filter((sku: string) => sku !== 'SG-FAKE'));
    expect(kept.total).toBe(all.total - 1);
    const second = (await get('/v1/deals?min_discount_pct=5&exclude_fake_discounts=true&limit=1&offset=1')).json();
    expect(second.items.map((i: Rec) => i.sku)).toEqual([kept.items[1].sku]);
    expect(second).toMatchObject({ total: kept.total, has_more: kept.total > 2 });
  });

  it('refuses a value that is not a boolean, naming the parameter', async () => {
    const r = await get('/v1/deals?exclude_fake_discounts=maybe');
    expect(r.statusCode).toBe(422);
    expect(r.json().detail[0].loc).toEqual(['query', 'exclude_fake_discounts']);
  });
});

describe('history reads', () => {
  it('one observations read per page of deals, whatever its size; one per step when flagged deals are left out', async () => {
    const spy = vi.spyOn(s.h.c.store.catalog, 'observationsFor');
    try {
      await get('/v1/products/deals?country_code=SG&limit=100');
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0][0].length).toBeGreaterThanOrEqual(3);
      spy.mockClear();
      await get('/v1/deals?min_discount_pct=5&exclude_fake_discounts=true&limit=1&offset=1');
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('Surface B GET /v1/products/deals', () => {
  it('shows the check on each deal, the low in the shown currency', async () => {
    const body = (await get('/v1/products/deals?country_code=SG')).json();
    const by = Object.fromEntries(body.results.map((r: Rec) => [(r.metadata as Rec).sku, r]));
    expect(by['SG-HONEST']).toMatchObject({ original_price: 100, discount_started_at: '2026-11-01T00:00:00.000Z', lowest_price_30d_before_discount: 100, fake_discount: false });
    expect(by['SG-FAKE']).toMatchObject({ original_price: 150, fake_discount: true, lowest_price_30d_before_discount: null });
    expect(by['SG-SHORT']).toMatchObject({ original_price: 120, fake_discount: null, discount_started_at: null });
    const usd = (await get('/v1/products/deals?country_code=SG&currency=USD')).json();
    const honestUsd = usd.results.find((r: Rec) => (r.metadata as Rec).sku === 'SG-HONEST');
    // The low converts as the price does: 100 / 80 of it.
    expect(honestUsd.lowest_price_30d_before_discount).toBeCloseTo((honestUsd.price.amount * 100) / 80, 2);
  });

  it('exclude_fake_discounts=true leaves the flagged deal out, pages over what is kept, and counts exactly on the last page', async () => {
    const all = (await get('/v1/products/deals?country_code=SG')).json();
    const kept = (await get('/v1/products/deals?country_code=SG&exclude_fake_discounts=true')).json();
    const skus = (b: { results: Rec[] }) => b.results.map((r) => (r.metadata as Rec).sku);
    expect(skus(kept)).toEqual(skus(all).filter((x) => x !== 'SG-FAKE'));
    expect(kept.total).toBe(all.total - 1);
    const page2 = (await get('/v1/products/deals?country_code=SG&exclude_fake_discounts=true&limit=1&offset=1')).json();
    expect(skus(page2)).toEqual([skus(kept)[1]]);
    expect(page2.total).toBe(kept.total);
    const bad = await get('/v1/products/deals?exclude_fake_discounts=2');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('exclude_fake_discounts');
  });
});

describe('MCP deals tool', () => {
  const call = async (args: Rec) => {
    const r = (await client.callTool({ name: 'deals', arguments: args })) as CallToolResult;
    return { r, out: expectValidOutput(tools.find((t) => t.name === 'deals')!, r) as { items: Rec[]; total: number } };
  };

  it('shows the check and cites a flagged deal in its text; exclude_fake_discounts leaves it out', async () => {
    const { r, out } = await call({ country: ['SG'], min_discount_pct: 5 });
    const by = bySku(out.items);
    expect(by['SG-FAKE']).toMatchObject({ fake_discount: true, original_price: '150.00' });
    expect(by['SG-HONEST']).toMatchObject({ fake_discount: false, lowest_price_30d_before_discount: '100.00', discount_started_at: '2026-11-01T00:00:00.000Z' });
    const text = r.content[0].type === 'text' ? r.content[0].text : '';
    expect(text).toContain('FAKE DISCOUNT: original 150.00 SGD is above every price of the last 90 days (highest 85.00 SGD)');
    const kept = await call({ country: ['SG'], min_discount_pct: 5, exclude_fake_discounts: true });
    expect(kept.out.items.map((i) => i.sku)).toEqual(out.items.map((i) => i.sku).filter((x) => x !== 'SG-FAKE'));
    expect(kept.out.total).toBe(out.total - 1);
  });
});

describe('V2 agent insights', () => {
  it('flag the discount and cite its numbers', async () => {
    const r = (await get('/v2/agents/search?q=acme&include_agent_insights=true')).json();
    const by = bySku(r.results);
    expect((by['SG-FAKE'] as Rec).agent_insights).toMatchObject({
      fake_discount: true, lowest_price_30d_before_discount: null,
      recommendation_reason: expect.stringContaining('the original price SGD 150.00 was not charged in the last 90 days (highest SGD 85.00)'),
    });
    expect((by['SG-HONEST'] as Rec).agent_insights).toMatchObject({ fake_discount: false, lowest_price_30d_before_discount: '100.00' });
    expect(((by['SG-HONEST'] as Rec).agent_insights as Rec).recommendation_reason).not.toContain('not charged');
    expect((by['SG-SHORT'] as Rec).agent_insights).toMatchObject({ fake_discount: null });
  });
});
