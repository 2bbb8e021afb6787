import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { checkDeal, PRIOR_LOW_DAYS, WAS_PRICE_DAYS, type DealCheck } from '../../src/domain/honest-deal.js';
import type { PriceObservation } from '../../src/domain/listing.js';

/**
 * The honest-deal rule on real price histories: Shopee VN and Tiki VN items observed every 30-60
 * minutes (../shared/data/README.md). Read at test time from ../shared/data, never copied into the
 * repository; skipped, saying so, when the data is absent.
 */
const DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/data/price-history');
const present = existsSync(join(DIR, 'shopee-vn')) && existsSync(join(DIR, 'tiki-vn'));
if (!present) console.warn(`honest-deal real-data tests SKIPPED: ${DIR} is absent (see ../shared/data/README.md)`);

const DAY = 86_400_000;

interface Row { at: number; price: string; original: string }

/** Shopee prices are VND x 100,000; Tiki's are plain VND. Exact: the scale is removed as text. */
function vnd(text: string, scale: number): string {
  return new Big(text).div(new Big(10).pow(scale)).toFixed();
}

function rowsOf(file: string, scale: number): Row[] {
  const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const cols = head.split(',');
  const [t, p, o] = ['time', 'price', 'price_before_discount'].map((c) => cols.indexOf(c));
  return lines.map((line) => line.split(','))
    .map((f) => ({ at: Number(f[t]) * 1000, price: vnd(f[p], scale), original: vnd(f[o] || '0', scale) }))
    .sort((a, b) => a.at - b.at);
}

/** What the store keeps: a price observation when the price changes (and the first one). */
function observationsOf(rows: Row[]): PriceObservation[] {
  const out: PriceObservation[] = [];
  for (const r of rows) {
    if (out.length && new Big(out.at(-1)!.price).eq(r.price)) continue;
    out.push({ listingId: 1, price: r.price, currency: 'VND', source: 'real', observedAt: new Date(r.at).toISOString() });
  }
  return out;
}

const items = (market: string, scale: number) => (present ? readdirSync(join(DIR, market)) : [])
  .filter((f) => f.startsWith('history_') && f.endsWith('.csv'))
  .map((f) => ({ id: `${market}/${f.slice(8, -4)}`, rows: rowsOf(join(DIR, market, f), scale) }));

interface Evaluation { item: string; now: number; row: Row; check: DealCheck }

/** The rule at the end of every day of each item's history when it was discounted then. */
function evaluate(list: Array<{ id: string; rows: Row[] }>): Evaluation[] {
  const out: Evaluation[] = [];
  for (const { id, rows } of list) {
    const observations = observationsOf(rows);
    for (let now = Math.ceil(rows[0].at / DAY) * DAY; now <= rows.at(-1)!.at + DAY; now += DAY) {
      const row = rows.filter((r) => r.at <= now).at(-1)!;
      const check = checkDeal({ price: row.price, originalPrice: row.original, currency: 'VND', lastCheckedAt: new Date(row.at).toISOString() }, observations, new Date(now));
      if (check) out.push({ item: id, now, row, check });
    }
  }
  return out;
}

/** The price in force at `t` by the raw rows (every poll, not only the changes): the last row at or before it. */
const inForce = (rows: Row[], t: number) => rows.filter((r) => r.at <= t).at(-1);

describe.skipIf(!present)('honest deals on the real Shopee and Tiki histories', () => {
  const shopee = items('shopee-vn', 5);
  const tiki = items('tiki-vn', 0);
  const all = [...shopee, ...tiki];
  const evaluations = evaluate(all);
  const rowsById = new Map(all.map((i) => [i.id, i.rows]));

  it('reads every item', () => {
    expect(shopee.length).toBe(10);
    expect(tiki.length).toBe(7);
    expect(evaluations.length).toBeGreaterThan(1000);
  });

  it('agrees with the raw polls on every discounted day: flag, start and prior low', () => {
    for (const { item, now, row, check } of evaluations) {
      const rows = rowsById.get(item)!;
      const original = new Big(row.original);
      const windowStart = now - WAS_PRICE_DAYS * DAY;
      const seen = rows.filter((r) => r.at > windowStart && r.at <= now);
      const atStart = inForce(rows, windowStart);
      const prices = [...(atStart ? [atStart] : []), ...seen].map((r) => new Big(r.price));
      const reached = prices.some((p) => p.gte(original));
      expect(check.originalNeverCharged, `${item} at ${new Date(now).toISOString()}`).toBe(reached ? false : atStart ? true : null);
      if (check.discountStartedAt !== null) {
        const start = Date.parse(check.discountStartedAt);
        // Every poll from the start on is below the original, and the one before it was not.
        expect(rows.filter((r) => r.at >= start && r.at <= now).every((r) => new Big(r.price).lt(original))).toBe(true);
        expect(new Big(inForce(rows, start - 1)!.price).gte(original)).toBe(true);
        if (check.priorLow !== null) {
          const from = start - PRIOR_LOW_DAYS * DAY;
          const before = [inForce(rows, from)!, ...rows.filter((r) => r.at > from && r.at < start)];
          expect(check.priorLow).toBe(before.reduce((m, r) => (new Big(r.price).lt(m) ? r.price : m), before[0].price));
        } else {
          expect(rows[0].at > start - PRIOR_LOW_DAYS * DAY).toBe(true);
        }
      }
    }
  });

  it('never flags a Tiki item: 39 days of history cannot cover 90', () => {
    const t = evaluations.filter((e) => e.item.startsWith('tiki-vn'));
    expect(t.length).toBeGreaterThan(0);
    expect(t.every((e) => e.check.originalNeverCharged !== true)).toBe(true);
  });

  it('finds both honest and never-charged "was" prices on Shopee, and reports the share', () => {
    const s = evaluations.filter((e) => e.item.startsWith('shopee-vn'));
    const known = s.filter((e) => e.check.originalNeverCharged !== null);
    const flaggedDays = known.filter((e) => e.check.originalNeverCharged).length;
    expect(flaggedDays).toBeGreaterThan(0);
    expect(flaggedDays).toBeLessThan(known.length);
    const lastDay = all.map(({ id }) => evaluations.filter((e) => e.item === id).at(-1)).filter((e): e is Evaluation => e !== undefined);
    const summary = {
      discounted_item_days: evaluations.length,
      shopee_days_known: known.length, shopee_days_flagged: flaggedDays,
      flagged_share_of_known: Number((flaggedDays / known.length).toFixed(3)),
      flagged_share_of_all_discounted_days: Number((evaluations.filter((e) => e.check.originalNeverCharged).length / evaluations.length).toFixed(3)),
      items_discounted_on_last_day: lastDay.length,
      items_flagged_on_last_day: lastDay.filter((e) => e.check.originalNeverCharged).map((e) => e.item),
      items_unknown_on_last_day: lastDay.filter((e) => e.check.originalNeverCharged === null).length,
      with_prior_low: evaluations.filter((e) => e.check.priorLow !== null).length,
    };
    console.info('honest deals on the real histories:', JSON.stringify(summary));
  });
});
