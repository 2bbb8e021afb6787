/**
 * `npm run bench:alerts -- [--lines N] [--alerts N]`
 * What armed alerts add to a re-import (issue 26: at most 10% on a 200,000-line re-import where
 * 10% of the prices change and 10,000 alerts are armed). One catalog of N listings is bulk-loaded
 * into a SQLite file and copied twice; on one copy N alerts are armed, on the other none. Each copy
 * then re-imports the feed with 10% of the prices lowered by 15% (through the ingest path
 * `catalog import` runs, parse worker included), and the alert evaluator catches up with the
 * changes the import logged. Prints, for both: the import, the evaluation, their sum, and the
 * alerts fired. Half the alerts are drop_percent 10 (those on changed listings fire), half
 * price_at_or_below under the new price (they do not).
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import type { AlertRecord } from '../src/domain/alerts.js';

const { values: args } = parseArgs({ options: { lines: { type: 'string', default: '200000' }, alerts: { type: 'string', default: '10000' } } });
const LINES = Number(args.lines);
const ALERTS = Number(args.alerts);
const root = join(import.meta.dirname, '..');
const out = join(root, 'bench', 'out', `alerts-${process.pid}`);
mkdirSync(out, { recursive: true });

const price = (i: number) => `${100 + (i % 900)}.00`;
const lowered = (i: number) => `${((100 + (i % 900)) * 85 / 100).toFixed(2)}`;
const changed = (i: number) => i % 10 === 3;
function feed(path: string, reimport: boolean): void {
  const rows: string[] = [];
  for (let i = 0; i < LINES; i++) {
    rows.push(JSON.stringify({
      source: ['shopee_sg', 'lazada_sg', 'amazon_sg', 'qoo10_sg'][i % 4], sku: `AB-${i}`, title: `Bench gadget ${i % 5000} model ${i}`,
      price: reimport && changed(i) ? lowered(i) : price(i), currency: 'SGD', url: `https://shop.example.com/ab/${i}`, brand: `Brand${i % 300}`,
      category: 'Gadgets', category_path: ['Electronics', 'Gadgets'], in_stock: true,
      observed_at: reimport ? '2026-11-20T12:00:00.000Z' : '2026-11-19T12:00:00.000Z',
    }));
  }
  writeFileSync(path, `${rows.join('\n')}\n`);
}

const open = (file: string) => createContainer(loadConfig({ DATABASE_URL: `sqlite:${file}`, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off', LOG_LEVEL: 'warn' }));

async function load(file: string, input: string): Promise<void> {
  const c = await open(file);
  c.store.bulkLoad?.startImport();
  const bulk = c.store.bulkLoad?.start() ?? false;
  await c.ingest.ingestStream({ path: input }, { parallel: true, profiles: !bulk });
  if (bulk) await c.store.bulkLoad!.finish();
  await c.close();
}

/** Alerts spread so that 10% of them sit on listings whose price changes (ids follow feed order from 1). */
async function arm(c: Container): Promise<void> {
  const t = new Date().toISOString();
  const from = await c.store.events.lastId();
  for (let k = 0; k < ALERTS; k++) {
    const i = Math.min(LINES - 1, Math.floor(k * (LINES / ALERTS)) + (Math.floor(k / 2) % 10));
    const rec: AlertRecord = {
      id: randomUUID(), accountId: 1 + (k % 50), listingId: i + 1,
      condition: k % 2 ? { type: 'drop_percent', percent: '10', basePrice: price(i), baseCurrency: 'SGD' } : { type: 'price_at_or_below', target: '1.00', currency: 'SGD' },
      rearm: k % 4 === 1 ? { after: 'price_above_target' } : null, expiresAt: null, state: 'armed', fireCount: 0, lastFiredAt: null,
      fromEventId: from, createdAt: t, updatedAt: t,
    };
    await c.store.alerts.create(rec, Number.MAX_SAFE_INTEGER, t);
  }
}

async function reimport(file: string, input: string, withAlerts: boolean) {
  const c = await open(file);
  if (withAlerts) await arm(c);
  c.store.bulkLoad?.startImport();
  const t0 = performance.now();
  const s = await c.ingest.ingestStream({ path: input }, { parallel: true });
  const t1 = performance.now();
  const fired = await c.alertEvaluator.run();
  const t2 = performance.now();
  await c.close();
  return { importMs: t1 - t0, evalMs: t2 - t1, updated: s.updated, unchanged: s.unchanged, fired };
}

const first = join(out, 'first.ndjson');
const second = join(out, 'second.ndjson');
feed(first, false);
feed(second, true);
const base = join(out, 'base.db');
let t = performance.now();
await load(base, first);
console.log(`bulk load of ${LINES} lines: ${((performance.now() - t) / 1000).toFixed(1)} s`);
for (const name of ['none', 'armed']) copyFileSync(base, join(out, `${name}.db`));

const rows: Array<Record<string, string | number>> = [];
// Alternated, so a neighbour's load on the shared machine falls on both alike.
for (const round of [1, 2]) {
  for (const name of round === 1 ? ['none', 'armed'] : ['armed', 'none']) {
    const file = join(out, `${name}-${round}.db`);
    copyFileSync(base, file);
    t = performance.now();
    const r = await reimport(file, second, name === 'armed');
    rows.push({ round, alerts: name === 'armed' ? ALERTS : 0, import_s: +(r.importMs / 1000).toFixed(2), evaluate_s: +(r.evalMs / 1000).toFixed(2),
      total_s: +((r.importMs + r.evalMs) / 1000).toFixed(2), updated: r.updated, unchanged: r.unchanged, fired: r.fired });
  }
}
console.table(rows);
const sum = (alerts: number) => rows.filter((r) => r.alerts === alerts).reduce((a, r) => a + Number(r.total_s), 0);
console.log(`re-import of ${LINES} lines, 10% of prices changed: ${ALERTS} armed alerts add ${(((sum(ALERTS) / sum(0)) - 1) * 100).toFixed(1)}% (import + evaluation, summed over both rounds)`);
rmSync(out, { recursive: true, force: true });
