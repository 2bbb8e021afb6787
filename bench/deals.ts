/**
 * `npm run bench:deals [-- --listings N --iterations N]`: honest deals (docs/deals.md) on the
 * embedded store. A generated catalog (default 20,000 listings, 120 days of history) in a
 * temporary SQLite file; after a warm-up, one request at a time through app.inject, each cold (the
 * discount threshold varied so the response cache never answers). Prints p50, p99 and max of: the
 * check alone for a page of 100 deals (one observations read and the rule), surface A and B deals
 * pages of 100 with and without exclude_fake_discounts, and how many of the checked deals are flagged.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { dealChecks } from '../src/catalog/deal-checks.js';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { generateDemoRecords } from '../src/demo/generate.js';

const { values: args } = parseArgs({ options: { listings: { type: 'string', default: '20000' }, iterations: { type: 'string', default: '300' } } });
const LISTINGS = Number(args.listings);
const ITERATIONS = Number(args.iterations);

const out = join(import.meta.dirname, 'out');
mkdirSync(out, { recursive: true });
const db = join(out, `deals-${process.pid}.db`);
const tiers = join(out, `deals-tiers-${process.pid}.json`);
writeFileSync(tiers, JSON.stringify({ enterprise: { per_minute: 100_000_000, per_day: null } }));

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5).toFixed(2), p99: at(0.99).toFixed(2), max: s[s.length - 1].toFixed(2) };
}

async function timed(n: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(50, n); i++) await run(n + i);
  const wall: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i);
    wall.push(performance.now() - t);
  }
  return wall;
}

async function main() {
  const now = new Date();
  const c = await createContainer(loadConfig({ DATABASE_URL: `sqlite:${db}`, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off', TIERS_FILE: tiers }));
  const app = await buildApp(c);
  await app.ready();
  const t0 = performance.now();
  const lines: string[] = [];
  for (const r of generateDemoRecords({ listings: LISTINGS, seed: 5, now, historyDays: 120 })) {
    lines.push(JSON.stringify(r));
    if (lines.length === 5000) await c.ingest.ingestStream(Readable.from([lines.splice(0).join('\n')]));
  }
  if (lines.length) await c.ingest.ingestStream(Readable.from([lines.join('\n')]));
  console.log(`loaded ${LISTINGS} listings with 120 days of history in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const { apiKey } = await c.keys.create({ tier: 'enterprise', name: 'bench', verified: true });
  const headers = { authorization: `Bearer ${apiKey}` };

  const page = await c.store.catalog.search({ filter: { minDiscountPct: 5 }, sort: 'discount_desc', limit: 100, offset: 0 });
  const checks = await dealChecks(c.store.catalog, page.listings, now);
  const flagged = [...checks.values()].filter((x) => x.originalNeverCharged === true).length;
  const unknown = [...checks.values()].filter((x) => x.originalNeverCharged === null).length;
  console.log(`discounted listings: ${page.total}; first page of 100: ${flagged} flagged, ${unknown} unknown`);

  const rows: Array<[string, number[]]> = [];
  const checkMs: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const p = await c.store.catalog.search({ filter: { minDiscountPct: 5 }, sort: 'discount_desc', limit: 100, offset: (i % 20) * 100 });
    const t = performance.now();
    await dealChecks(c.store.catalog, p.listings, now);
    if (i >= 20) checkMs.push(performance.now() - t);
  }
  rows.push(['check of 100 deals (read + rule)', checkMs]);
  const get = (url: string) => app.inject({ method: 'GET', url, headers }).then((r) => { if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`); });
  const pct = (i: number) => (5 + (i % 1000) / 1000).toFixed(3);
  for (const [name, url] of [
    ['A /v1/deals limit=100', (i: number) => `/v1/deals?limit=100&min_discount_pct=${pct(i)}`],
    ['A /v1/deals limit=100 exclude', (i: number) => `/v1/deals?limit=100&exclude_fake_discounts=true&min_discount_pct=${pct(i)}`],
    ['B /v1/products/deals limit=100', (i: number) => `/v1/products/deals?limit=100&min_discount=${pct(i)}`],
    ['B /v1/products/deals limit=100 exclude', (i: number) => `/v1/products/deals?limit=100&exclude_fake_discounts=true&min_discount=${pct(i)}`],
    ['B exclude, offset=1000', (i: number) => `/v1/products/deals?limit=100&offset=1000&exclude_fake_discounts=true&min_discount=${pct(i)}`],
  ] as const) rows.push([name, await timed(ITERATIONS, () => get(url(Math.floor(Math.random() * 1e6))))]);
  console.log(`machine: ${availableParallelism()} cores, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${ITERATIONS} requests each, ms`);
  for (const [name, ms] of rows) console.log(name.padEnd(42), JSON.stringify(stats(ms)));
  await app.close();
  await c.close();
}

main().finally(() => { for (const f of [db, `${db}-wal`, `${db}-shm`, tiers]) rmSync(f, { force: true }); }).catch((e) => { console.error(e); process.exit(1); });
