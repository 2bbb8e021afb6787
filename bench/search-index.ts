/**
 * `npx tsx bench/search-index.ts --listings N`: the in-memory search index alone, without HTTP or a
 * store. Builds it from N generated listings, then times the bench's query mix (common words in >10%
 * of titles, mid-frequency words, two- and three-word queries), with and without filters and facets.
 * Prints build time, heap and RSS, and per-query microseconds (mean and p99 over repeated runs).
 */
import { parseArgs } from 'node:util';
import { normalizeRecord } from '../src/catalog/normalize.js';
import { generateDemoRecords } from '../src/demo/generate.js';
import { docOf } from '../src/catalog/search-index/indexed-search.js';
import { SearchIndex } from '../src/catalog/search-index/search-index.js';
import { shippedRates } from '../src/catalog/fx-service.js';
import type { Listing } from '../src/domain/listing.js';
import type { SearchQuery } from '../src/store/types.js';
import { queryMix } from './query-mix.js';
import { forgivingQuery, widened, type TermGroup } from '../src/domain/search-text.js';
import { forgivingPage } from '../src/catalog/forgiving-search.js';
import { misspell, mulberry32 } from './search-typos.js';

const { values: args } = parseArgs({ options: { listings: { type: 'string', default: '100000' }, runs: { type: 'string', default: '200' } } });
const N = Number(args.listings);
const RUNS = Number(args.runs);
const now = new Date('2026-11-20T00:00:00.000Z');
const rates = shippedRates();

const index = new SearchIndex();
const titles: string[] = [];
let id = 0;
const t0 = performance.now();
for (const raw of generateDemoRecords({ listings: N, seed: 1, historyDays: 0, now })) {
  const n = normalizeRecord(raw, id + 1, rates, now);
  if (!n.ok) continue;
  const r = n.record;
  const listing: Listing = {
    ...r, id: ++id, uuid: '', groupId: id, priceTrend: null, referencePrice: null,
    lastCheckedAt: r.observedAt, dataUpdatedAt: r.observedAt, createdAt: r.observedAt, updatedAt: r.observedAt,
  };
  index.upsert(docOf(listing));
  if (id % Math.max(1, Math.floor(N / 5000)) === 0) titles.push(r.title);
}
const buildMs = performance.now() - t0;
global.gc?.();
const mem = process.memoryUsage();
console.log(`built ${index.size} listings in ${(buildMs / 1000).toFixed(1)} s (generation and normalization included); heap ${Math.round(mem.heapUsed / 2 ** 20)} MB, array buffers ${Math.round(mem.arrayBuffers / 2 ** 20)} MB, RSS ${Math.round(mem.rss / 2 ** 20)} MB`);

const { common, mid, multi } = queryMix(titles);
const pairs = [`${common[0]} ${common[1]}`, `${common[2]} ${common[3]}`];

/**
 * Per-query µs over RUNS runs: `forgiving` expands the text first and, in relevance order, composes
 * the exact page and the rest as the catalog service does (`forgivingPage`), all timed.
 */
async function measure(q: SearchQuery, forgiving: boolean) {
  const engine = async (one: SearchQuery) => {
    const a = index.search(one);
    return { ...a, items: a.ids };
  };
  const run = async () => {
    if (!forgiving) return index.search(q);
    const terms = forgivingQuery(q.text!, index.vocabulary) as TermGroup[];
    return q.sort === 'relevance' && widened(terms) ? forgivingPage({ ...q, terms }, terms, engine) : index.search({ ...q, terms });
  };
  const first = await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await run();
    samples.push((performance.now() - s) * 1000);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { total: first.total, mean: Math.round(mean), p99: Math.round(samples[Math.floor(samples.length * 0.99)]) };
}

async function time(name: string, make: (text: string) => SearchQuery, texts: string[]) {
  for (const text of texts) {
    const q = make(text);
    const exact = await measure(q, false);
    const f = text === '(none)' ? exact : await measure(q, true);
    console.log(`| ${name} | ${text} | ${exact.total} | ${exact.mean} | ${exact.p99} | ${f.total} | ${f.mean} | ${f.p99} |`);
  }
}

console.log(`vocabulary: ${index.vocabulary.size} terms`);
console.log('\nExact: the words as typed (the mix before forgiving search). Forgiving: the same query expanded (synonyms, corrections, and completions of the last word, which the text ends inside), the expansion timed too.');
console.log('\n| query | text | matches | mean µs | p99 µs | forgiving matches | forgiving mean µs | forgiving p99 µs |\n|---|---|---|---|---|---|---|---|');
const plain = (text: string): SearchQuery => ({ text, filter: {}, sort: 'relevance', limit: 20, offset: 0 });
await time('relevance', plain, [...common, ...mid, ...multi, ...pairs]);
// The mix misspelled: one edit (eval-search's rule) to a word of 6 letters or more in each query.
const rand = mulberry32(3);
const typos = [...common, ...mid, ...multi, ...pairs].map((t) => t.split(' ').map((w, i, all) => (w.length >= 6 && !all.slice(0, i).some((x) => x.length >= 6) ? misspell(w, rand) : w)).join(' '))
  .filter((t, i) => t !== [...common, ...mid, ...multi, ...pairs][i]);
await time('relevance, misspelled', plain, typos);
await time('relevance, typed with a space after', plain, [...common, ...multi].map((t) => `${t} `));
await time('relevance, in stock, SG', (text) => ({ ...plain(text), filter: { inStock: true, countries: ['SG'] } }), common.slice(0, 2));
await time('relevance + facets', (text) => ({ ...plain(text), facets: true }), common.slice(0, 2));
await time('price_asc', (text) => ({ ...plain(text), sort: 'price_asc' }), common.slice(0, 2));
await time('no text, deal_desc, min 5%', () => ({ filter: { minHistoryDiscountPct: 5 }, sort: 'deal_desc', limit: 20, offset: 0 }), ['(none)']);
