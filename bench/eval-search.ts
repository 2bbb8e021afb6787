/**
 * `npm run eval:search` (`npx tsx bench/eval-search.ts [--listings N] [--queries Q] [--seed S]`):
 * forgiving search measured (issue 26 part 3, docs/search.md "Measured"). The demo catalogue (seed
 * 42) goes through the real ingest path; then a query set of misspelled product names is made from
 * it by a fixed rule, with a seeded PRNG (mulberry32):
 *
 * 1. pick a listing at random; the name a shopper would type is the first 3 words of its title (as
 *    search reads them, after a leading bracketed tag such as "[Official Store]") that have no digit
 *    and at least 3 letters; 2 when the title has only 2 such words, none under 2;
 * 2. one of those words of 5 letters or more gets one edit at a random position: a deletion (only
 *    from 6 letters, so the typed word keeps the 5 letters typo tolerance starts at), an adjacent
 *    transposition (of two different letters) or a substitution (by another letter a-z), the kind
 *    picked at random; a name without such a word is skipped for another listing.
 *
 * A query finds its product when the listing, or a listing of its match group, is in the first 5
 * results (relevance). Printed for both search paths (SEARCH_INDEX=memory and off), with the
 * unmisspelled queries and the misspelled ones searched exactly for comparison.
 * Exit: 0 when every path finds at least 90% of the misspelled queries, 1 otherwise.
 */
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { generateDemoRecords } from '../src/demo/generate.js';
import type { Listing } from '../src/domain/listing.js';
import { misspelledQueries, type EvalQuery } from './search-typos.js';

const { values: args } = parseArgs({
  options: { listings: { type: 'string', default: '10000' }, queries: { type: 'string', default: '300' }, seed: { type: 'string', default: '7' } },
});
const NOW = new Date('2025-01-15T12:00:00.000Z');
const TARGET = 0.9;
const TOP = 5;

async function run(mode: 'memory' | 'off', records: string, count: number, seed: number) {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off', SEARCH_INDEX: mode });
  const c = await createContainer(config, { clock: { now: () => NOW } });
  await c.ingest.ingestStream(Readable.from([records]), { batchSize: 2000, now: () => NOW });
  await c.searchIndex?.build();
  const listings: Listing[] = [];
  for await (const l of c.catalog.scan({}, 10_000_000, 0)) listings.push(l);
  listings.sort((a, b) => a.id - b.id);
  const queries = misspelledQueries(listings, count, seed);
  const found = async (text: string, q: EvalQuery, exact: boolean) => {
    const page = await c.catalog.search({ text, filter: {}, sort: 'relevance', limit: TOP, offset: 0 }, { exact });
    return page.items.some((v) => v.listing.id === q.listingId || v.listing.groupId === q.groupId);
  };
  let clean = 0;
  let exactOnly = 0;
  let forgiving = 0;
  const missed: string[] = [];
  const cpu = process.cpuUsage();
  const hits: boolean[] = [];
  for (const q of queries) hits.push(await found(q.misspelled, q, false));
  const used = process.cpuUsage(cpu);
  for (const [i, q] of queries.entries()) {
    const right = await found(q.clean, q, false);
    if (right) clean++;
    if (hits[i]) forgiving++;
    else missed.push(`${q.misspelled} (${q.clean}${right ? '' : ', missed too'})`);
    if (await found(q.misspelled, q, true)) exactOnly++;
  }
  await c.close();
  return { mode, n: queries.length, clean, exactOnly, forgiving, missed, cpuMsPerQuery: (used.user + used.system) / 1000 / queries.length };
}

const listingCount = Number(args.listings);
const records = [...generateDemoRecords({ listings: listingCount, seed: 42, now: NOW, historyDays: 0 })].map((r) => JSON.stringify(r)).join('\n');
let ok = true;
for (const mode of ['memory', 'off'] as const) {
  const r = await run(mode, records, Number(args.queries), Number(args.seed));
  const pct = (n: number) => `${((100 * n) / r.n).toFixed(1)}%`;
  console.log(`SEARCH_INDEX=${mode}: ${r.n} misspelled queries over ${listingCount} listings, product in the top ${TOP}: `
    + `forgiving ${pct(r.forgiving)} (${r.forgiving}); the same queries spelled right ${pct(r.clean)}; misspelled, searched exactly ${pct(r.exactOnly)}; `
    + `${r.cpuMsPerQuery.toFixed(2)} ms CPU per forgiving search`);
  console.log(`  missed, e.g.: ${r.missed.slice(0, 6).join('; ')}`);
  if (r.forgiving / r.n < TARGET) ok = false;
}
if (!ok) {
  console.error(`under the ${TARGET * 100}% target`);
  process.exit(1);
}
