/**
 * `npx tsx bench/accessory-ranking.ts [--listings N] [--seed S]` (issue 18 item 14)
 * Loads the generated demo catalogue (ground truth on: each record says whether its product is a
 * phone, an accessory of one, or a bundle) through the real ingest path, then asks for every phone
 * that has at least one case in the catalogue by its model name ("galaxy s24 5g"): how often is the
 * first search result (relevance) an accessory, how often does an accessory rank above a product
 * in the first 20, and how often is best-price an accessory? Both search paths:
 * the in-memory index (SEARCH_INDEX=memory) and the store's own full-text search (off).
 */
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import type { Listing } from '../src/domain/listing.js';
import { generateDemoRecords } from '../src/demo/generate.js';

const { values: args } = parseArgs({ options: { listings: { type: 'string', default: '20000' }, seed: { type: 'string', default: '42' } } });
const NOW = new Date('2025-01-15T12:00:00.000Z');

const fixedClock = { now: () => NOW };

const roleOf = (l: Listing) => ((l.metadata?.demo_truth as { role?: string } | undefined)?.role ?? 'unknown');

/** The model name a description starts with ("Samsung Galaxy S24 5G (256GB). ram: ..."), without the brand. */
function phoneName(description: string, brand: string): string | null {
  const head = description.split(/ \(|\. /)[0].replace(/\.$/, '');
  return head.toLowerCase().startsWith(brand.toLowerCase() + ' ') ? head.slice(brand.length + 1).toLowerCase() : null;
}

async function run(mode: 'memory' | 'off', records: string) {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off', SEARCH_INDEX: mode });
  const c = await createContainer(config, { clock: fixedClock });
  await c.ingest.ingestStream(Readable.from([records]), { batchSize: 2000, now: () => NOW });
  await c.searchIndex?.build();
  // Phones by name, and the names cases are made for ("... Case for Samsung Galaxy S24 5G. material: ...").
  const phones = new Set<string>();
  const fitted = new Set<string>();
  for await (const l of c.catalog.scan({}, 10_000_000, 0)) {
    const role = roleOf(l);
    if (role === 'product' && l.category === 'Smartphones' && l.brand && l.description) {
      const name = phoneName(l.description, l.brand);
      if (name) phones.add(name);
    } else if (role === 'accessory' && l.description) {
      const m = / Case for (.+?)\. /.exec(l.description);
      if (m) fitted.add(m[1].toLowerCase());
    }
  }
  const queries = [...phones].filter((name) => [...fitted].some((f) => f.endsWith(' ' + name))).sort();
  let topAccessory = 0;
  let interleaved = 0;
  let bestAccessory = 0;
  for (const q of queries) {
    const page = await c.catalog.search({ text: q, filter: {}, sort: 'relevance', limit: 20, offset: 0 });
    const roles = page.items.map((v) => roleOf(v.listing));
    if (roles[0] === 'accessory') topAccessory++;
    if (roles.indexOf('accessory') >= 0 && roles.lastIndexOf('product') > roles.indexOf('accessory')) interleaved++;
    const best = await c.catalog.bestPrice(q, {});
    if (best && roleOf(best.listing) === 'accessory') bestAccessory++;
  }
  await c.close();
  return { mode, queries: queries.length, topAccessory, interleaved, bestAccessory, sample: queries.slice(0, 5) };
}

const lines = [...generateDemoRecords({ listings: Number(args.listings), seed: Number(args.seed), now: NOW, historyDays: 0, groundTruth: true })]
  .map((r) => JSON.stringify(r)).join('\n');
for (const mode of ['memory', 'off'] as const) {
  const r = await run(mode, lines);
  console.log(`SEARCH_INDEX=${r.mode}: ${r.queries} phone queries; an accessory first in search: ${r.topAccessory}; an accessory above a product in the first 20: ${r.interleaved}; an accessory as best-price: ${r.bestAccessory}  (e.g. ${r.sample.join(', ')})`);
}
