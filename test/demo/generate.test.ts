import { describe, expect, it } from 'vitest';
import { generateDemoRecords, type IngestRecordInput } from '../../src/demo/generate.js';

const NOW = new Date('2025-03-01T00:00:00.000Z');
const DAY = 86_400_000;
const DECIMALS: Record<string, number> = { USD: 2, SGD: 2, MYR: 2, THB: 2, PHP: 2, VND: 0, IDR: 0 };
const COUNTRY_CURRENCY: Record<string, string> = { SG: 'SGD', MY: 'MYR', TH: 'THB', PH: 'PHP', VN: 'VND', ID: 'IDR', US: 'USD' };

function take(n: number, opts: Parameters<typeof generateDemoRecords>[0]): IngestRecordInput[] {
  const out: IngestRecordInput[] = [];
  for (const r of generateDemoRecords(opts)) {
    out.push(r);
    if (out.length >= n) break;
  }
  return out;
}

/** Independent GS1 check, so the generator's own helper is not marking its own homework. */
function gtinOk(code: string): boolean {
  if (!/^\d{13}$/.test(code)) return false;
  const digits = [...code].map(Number);
  const sum = digits.slice(0, 12).reduce((s, d, i) => s + d * (i % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10 === digits[12];
}

function priceOk(value: string, currency: string): boolean {
  const d = DECIMALS[currency];
  return (d === 0 ? /^[1-9]\d*$/ : /^(0|[1-9]\d*)\.\d{2}$/).test(value) && Number(value) > 0;
}

// One catalog with history and the ground truth, shared by the property checks below.
const LISTINGS = 4000;
const all = [...generateDemoRecords({ listings: LISTINGS, seed: 11, now: NOW, groundTruth: true })];
const latest = new Map<string, IngestRecordInput>();
for (const r of all) latest.set(`${r.source}|${r.sku}`, r);

describe('generateDemoRecords: determinism', () => {
  it('gives identical records for the same seed and different ones for another seed', () => {
    const a = JSON.stringify(take(1000, { listings: 2000, seed: 5, now: NOW }));
    const b = JSON.stringify(take(1000, { listings: 2000, seed: 5, now: NOW }));
    const c = JSON.stringify(take(1000, { listings: 2000, seed: 6, now: NOW }));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('does not depend on the wall clock when now is omitted', () => {
    const a = JSON.stringify(take(50, { listings: 100 }));
    const b = JSON.stringify(take(50, { listings: 100 }));
    expect(a).toBe(b);
  });
});

describe('generateDemoRecords: shape', () => {
  it('has exactly the requested number of distinct listings', () => {
    expect(latest.size).toBe(LISTINGS);
    const once = [...generateDemoRecords({ listings: 3000, seed: 2, now: NOW, historyDays: 0 })];
    expect(once.length).toBe(3000);
    expect(new Set(once.map((r) => `${r.source}|${r.sku}`)).size).toBe(3000);
  });

  it('yields records in chronological order, none after now', () => {
    let unordered = 0;
    for (let k = 1; k < all.length; k++) if (all[k - 1].observed_at! > all[k].observed_at!) unordered++;
    expect(unordered).toBe(0);
    expect(new Date(all[all.length - 1].observed_at!).getTime()).toBeLessThanOrEqual(NOW.getTime());
  });

  it('covers at least 10 platforms and all 7 countries in native currencies', () => {
    const sources = new Set(all.map((r) => r.source));
    expect(sources.size).toBeGreaterThanOrEqual(10);
    expect(new Set(all.map((r) => r.country_code))).toEqual(new Set(Object.keys(COUNTRY_CURRENCY)));
    for (const r of latest.values()) {
      expect(r.currency).toBe(COUNTRY_CURRENCY[r.country_code!]);
      expect(r.region).toBe(r.country_code!.toLowerCase());
    }
  });

  it('fills the required fields and writes exact prices in the currency decimals', () => {
    // Collects problems instead of calling expect per field: ~30k records stay fast.
    const problems: string[] = [];
    const bad = (r: IngestRecordInput, what: string): void => {
      if (problems.length < 20) problems.push(`${r.source}/${r.sku}: ${what}`);
    };
    for (const r of all) {
      for (const f of ['source', 'sku', 'title', 'price', 'currency', 'url'] as const) {
        if (typeof r[f] !== 'string' || r[f].length === 0) bad(r, `missing ${f}`);
      }
      if (!r.url.startsWith('https://')) bad(r, `url ${r.url}`);
      if (!priceOk(r.price, r.currency)) bad(r, `price ${r.price} ${r.currency}`);
      if (r.original_price !== undefined && (!priceOk(r.original_price, r.currency) || Number(r.original_price) <= Number(r.price))) {
        bad(r, `original_price ${r.original_price} vs ${r.price}`);
      }
      for (const v of r.variants ?? []) {
        if (v.currency !== r.currency || !priceOk(v.price, v.currency)) bad(r, `variant price ${v.price} ${v.currency}`);
        if (!['in_stock', 'low_stock', 'out_of_stock', 'pre_order'].includes(v.stock_status)) bad(r, `variant stock ${v.stock_status}`);
      }
      if (r.rating !== undefined && (r.rating < 0 || r.rating > 5 || Math.round(r.rating * 10) / 10 !== r.rating)) bad(r, `rating ${r.rating}`);
      if (r.category_path?.length !== 3 || r.category !== r.category_path[2]) bad(r, 'category path');
      if (![null, 'low', 'medium', 'high'].includes(r.stock_level === undefined ? 'missing' : r.stock_level)) bad(r, `stock_level ${r.stock_level}`);
      if (typeof r.in_stock !== 'boolean') bad(r, 'in_stock');
      if (Number.isNaN(Date.parse(r.observed_at ?? ''))) bad(r, `observed_at ${r.observed_at}`);
      if (!/^[A-Z]{2}$/.test(r.country_code ?? '') || !/^[a-z]{2}$/.test(r.region ?? '')) bad(r, 'region/country');
    }
    expect(problems).toEqual([]);
  });

  it('round-trips through JSON without losing anything but undefined fields', () => {
    const line = JSON.stringify(all[0]);
    expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(JSON.parse(line))));
    expect(line).not.toContain('undefined');
  });

  it('uses a realistic category tree', () => {
    const tops = new Set(all.map((r) => r.category_path![0]));
    const leaves = new Set(all.map((r) => r.category));
    expect(tops.size).toBeGreaterThanOrEqual(8);
    expect(leaves.size).toBeGreaterThanOrEqual(35);
  });
});

describe('generateDemoRecords: matching material', () => {
  const groups = new Map<number, IngestRecordInput[]>();
  for (const r of latest.values()) {
    const id = (r.metadata!.demo_truth as { product: number }).product;
    groups.set(id, [...(groups.get(id) ?? []), r]);
  }

  it('gives GTINs valid check digits, one GTIN per product', () => {
    const withGtin = [...latest.values()].filter((r) => r.gtin);
    expect(withGtin.length).toBeGreaterThan(LISTINGS * 0.2);
    for (const r of withGtin) expect(gtinOk(r.gtin!), r.gtin).toBe(true);
    const owner = new Map<string, number>();
    for (const [id, rs] of groups) {
      for (const r of rs) {
        if (!r.gtin) continue;
        expect(owner.get(r.gtin) ?? id).toBe(id);
        owner.set(r.gtin, id);
      }
    }
  });

  it('puts the same product on 2 to 6 platforms', () => {
    const sizes = new Set<number>();
    for (const rs of groups.values()) {
      if (rs.length < 2) continue;
      const platforms = new Set(rs.map((r) => r.source)).size;
      expect(platforms).toBeGreaterThanOrEqual(2);
      expect(platforms).toBeLessThanOrEqual(6);
      sizes.add(rs.length);
    }
    expect([...sizes].sort()).toEqual([2, 3, 4, 5, 6]);
    const shared = [...groups.values()].filter((rs) => rs.length > 1).length;
    expect(shared / groups.size).toBeGreaterThan(0.5);
  });

  it('has products matchable only by title, local-language noise, accessories and bundles', () => {
    const titles = [...latest.values()].map((r) => r.title);
    const titleOnly = [...groups.values()].filter((rs) => rs.length > 1 && rs.every((r) => !r.gtin));
    expect(titleOnly.length).toBeGreaterThan(50);
    expect(titles.some((t) => t.startsWith('Điện thoại '))).toBe(true);
    expect(titles.some((t) => t.includes('โทรศัพท์'))).toBe(true);
    expect(titles.some((t) => t.includes('HP '))).toBe(true);
    expect(titles.some((t) => t.includes('[Official Store]'))).toBe(true);
    const roles = [...latest.values()].map((r) => (r.metadata!.demo_truth as { role: string }).role);
    expect(roles.filter((x) => x === 'accessory').length).toBeGreaterThan(20);
    expect(roles.filter((x) => x === 'bundle').length).toBeGreaterThan(5);
    expect(titles.some((t) => / Case for /.test(t))).toBe(true);
    expect(titles.some((t) => / \+ .* Bundle/.test(t))).toBe(true);
  });

  it('prices the same product plausibly across currencies (within 2.5x of each other in USD)', () => {
    const usdPer: Record<string, number> = { USD: 1, SGD: 1.34, MYR: 4.45, THB: 34.5, PHP: 57.5, VND: 25_400, IDR: 16_300 };
    let checked = 0;
    let wild = 0;
    for (const rs of groups.values()) {
      if (rs.length < 2) continue;
      const usd = rs.map((r) => Number(r.variants?.[0]?.price ?? r.price) / usdPer[r.currency]);
      // Promotions (up to 35%) and permanent drops stack on one listing and not on another.
      if (Math.max(...usd) / Math.min(...usd) >= 2.5) wild++;
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    expect(wild).toBe(0);
  });
});

describe('generateDemoRecords: history and freshness', () => {
  const byListing = new Map<string, IngestRecordInput[]>();
  for (const r of all) {
    const k = `${r.source}|${r.sku}`;
    byListing.set(k, [...(byListing.get(k) ?? []), r]);
  }

  it('averages several price changes per listing over 90 days', () => {
    const perListing = all.length / LISTINGS;
    expect(perListing).toBeGreaterThan(5);
    expect(perListing).toBeLessThan(10);
    let changes = 0;
    for (const rs of byListing.values()) for (let k = 1; k < rs.length; k++) if (rs[k].price !== rs[k - 1].price) changes++;
    expect(changes / LISTINGS).toBeGreaterThan(2.5);
  });

  it('starts every listing near the window start and repeats the full record on updates', () => {
    const start = NOW.getTime() - 90 * DAY;
    let late = 0;
    let changedIdentity = 0;
    for (const rs of byListing.values()) {
      // Very stale listings may have a single record, at their last-seen time.
      if (rs.length > 1 && Date.parse(rs[0].observed_at!) > start + DAY) late++;
      for (const r of rs) if (r.title !== rs[0].title || r.url !== rs[0].url || r.gtin !== rs[0].gtin) changedIdentity++;
    }
    expect(late).toBe(0);
    expect(changedIdentity).toBe(0);
  });

  it('has promotions that revert and discounts with a crossed-out price', () => {
    let reverted = 0;
    for (const rs of byListing.values()) {
      for (let k = 2; k < rs.length; k++) {
        const [a, b, c] = [rs[k - 2], rs[k - 1], rs[k]].map((r) => Number(r.price));
        if (b < a * 0.9 && c >= a * 0.97 && rs[k - 1].original_price) reverted++;
      }
    }
    expect(reverted).toBeGreaterThan(100);
    expect([...latest.values()].filter((r) => r.original_price).length).toBeGreaterThan(LISTINGS * 0.2);
  });

  it('leaves about 5% of listings stale and 3% very stale', () => {
    const ages = [...latest.values()].map((r) => (NOW.getTime() - Date.parse(r.observed_at!)) / DAY);
    const stale = ages.filter((a) => a > 8 && a < 30).length / LISTINGS;
    const veryStale = ages.filter((a) => a > 30).length / LISTINGS;
    expect(stale).toBeGreaterThan(0.03);
    expect(stale).toBeLessThan(0.08);
    expect(veryStale).toBeGreaterThan(0.015);
    expect(veryStale).toBeLessThan(0.05);
    expect(ages.filter((a) => a < 1).length / LISTINGS).toBeGreaterThan(0.6);
  });

  it('rejects impossible options', () => {
    expect(() => generateDemoRecords({ listings: -1 }).next()).toThrow(RangeError);
    expect(() => generateDemoRecords({ listings: 10, historyDays: 1.5 }).next()).toThrow(RangeError);
    expect(take(10, { listings: 0 })).toEqual([]);
  });
});
