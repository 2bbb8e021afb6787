// Matching quality on the public Abt-Buy and Amazon-Google benchmarks (../shared/data/matching,
// never copied into the repository). Listings are grouped incrementally in file order exactly as
// ingest will: profile -> blocking keys -> candidates from an index -> chooseGroup -> else a new
// group. A labelled pair is predicted "same" when both listings end in one group.
//
//   npx tsx bench/eval-matching.ts [--data DIR] [--json]
// Exit: 0 targets met, 1 under target, 2 data absent.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  blockingKeys, buildProfile, chooseGroup, MAX_CANDIDATES, MAX_PER_KEY, MemoryBlocks,
} from '../src/domain/matching/index.js';
import type { Assign, AssignStats, EvalPair, EvalRecord, Metrics } from './eval-types.js';

/**
 * The ingest algorithm over an in-memory blocking index (key -> listing ids, oldest first):
 * candidates are read key by key in the order blockingKeys returns them, at most MAX_PER_KEY from
 * a key, stopping at MAX_CANDIDATES.
 */
export const inMemoryAssign: Assign = async (records) => {
  const blocks = new MemoryBlocks();
  const groups = new Map<string, number>();
  let candidateTotal = 0;
  let maxCandidates = 0;
  let profileNs = 0n;
  let compareNs = 0n;
  const started = process.hrtime.bigint();
  for (const record of records) {
    const t0 = process.hrtime.bigint();
    const profile = buildProfile(record.input);
    const keys = blockingKeys(profile);
    profileNs += process.hrtime.bigint() - t0;
    const candidates = blocks.candidates(keys);
    candidateTotal += candidates.length;
    maxCandidates = Math.max(maxCandidates, candidates.length);
    const t1 = process.hrtime.bigint();
    const chosen = chooseGroup(profile, candidates);
    compareNs += process.hrtime.bigint() - t1;
    const id = blocks.listings.length;
    const groupId = chosen?.groupId ?? id;
    blocks.add({ id, groupId, profile }, keys);
    groups.set(record.id, groupId);
  }
  const micros = Number(process.hrtime.bigint() - started) / 1000;
  const n = Math.max(1, records.length);
  return {
    groups,
    stats: {
      listings: records.length,
      microsPerListing: micros / n,
      microsProfileKeys: Number(profileNs) / 1000 / n,
      microsPerCompare: Number(compareNs) / 1000 / Math.max(1, candidateTotal),
      meanCandidates: candidateTotal / n,
      maxCandidates,
      maxPostings: blocks.maxPostings(),
    },
  };
};

export async function evaluate(
  records: readonly EvalRecord[],
  pairs: readonly EvalPair[],
  assign: Assign = inMemoryAssign,
): Promise<{ metrics: Metrics; stats?: AssignStats; groups: Map<string, number> }> {
  const { groups, stats } = await assign(records);
  return { metrics: scorePairs(pairs, groups), stats, groups };
}

export function scorePairs(pairs: readonly EvalPair[], groups: ReadonlyMap<string, number>): Metrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const pair of pairs) {
    const gl = groups.get(pair.left);
    const same = gl !== undefined && gl === groups.get(pair.right);
    if (same && pair.label === 1) tp += 1;
    else if (same) fp += 1;
    else if (pair.label === 1) fn += 1;
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { pairs: pairs.length, tp, fp, fn, precision, recall, f1 };
}

function readLines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const price = (v: unknown): string | null => (typeof v === 'number' && v > 0 ? String(v) : text(v));

/** Abt-Buy: name, description, price (often null); no brand field (the brand leads the name). */
function abtBuyRecord(r: Record<string, unknown>): EvalRecord {
  return {
    id: String(r.id),
    input: {
      title: String(r.name), description: text(r.description), brand: null, gtin: null, mpn: null, category: null, specs: null,
      priceUsd: price(r.price),
    },
  };
}

/** Amazon-Google: title, manufacturer (mostly absent on the Google side), price. */
function amazonGoogleRecord(r: Record<string, unknown>): EvalRecord {
  return {
    id: String(r.id),
    input: { title: String(r.title), brand: text(r.manufacturer), gtin: null, mpn: null, category: null, specs: null, priceUsd: price(r.price) },
  };
}

function readPairs(file: string): EvalPair[] {
  return readLines(file).map((r) => ({ left: String(r.id_left), right: String(r.id_right), label: r.label === 1 ? 1 : 0 }));
}

interface DataSetSpec { name: string; records: string; toRecord: (r: Record<string, unknown>) => EvalRecord; test: string; train?: string; target: number; reference: { magellan: number; deepmatcher: number; ditto: number } }

const DATA_SETS: DataSetSpec[] = [
  { name: 'Abt-Buy', records: 'abt-buy_records.jsonl', toRecord: abtBuyRecord, test: 'abt-buy_v1_test.ndjson', target: 0.85, reference: { magellan: 0.44, deepmatcher: 0.63, ditto: 0.89 } },
  { name: 'Amazon-Google', records: 'amazon-google_records.jsonl', toRecord: amazonGoogleRecord, test: 'amazon-google_v1_test.ndjson', train: 'amazon-google_v1_train.ndjson', target: 0.7, reference: { magellan: 0.49, deepmatcher: 0.69, ditto: 0.76 } },
];

export interface DataSetReport { name: string; test: Metrics; train?: Metrics; target: number; stats?: AssignStats; reference: DataSetSpec['reference'] }
export interface RunOptions { dataDir?: string; assign?: Assign; split?: 'test' | 'train' | 'both' }

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const defaultDataDir = path.resolve(repoRoot, '../shared/data/matching');

/** Evaluates every data set; null when the data directory is absent. */
export async function runEvaluation(opts: RunOptions = {}): Promise<DataSetReport[] | null> {
  const dir = opts.dataDir ?? defaultDataDir;
  if (!existsSync(path.join(dir, DATA_SETS[0].records))) return null;
  const reports: DataSetReport[] = [];
  for (const spec of DATA_SETS) {
    const records = readLines(path.join(dir, spec.records)).map(spec.toRecord);
    // One untimed pass first so the reported µs are for JIT-compiled code, as in a long import.
    if (!opts.assign) await inMemoryAssign(records);
    const { groups, stats } = await (opts.assign ?? inMemoryAssign)(records);
    const report: DataSetReport = { name: spec.name, target: spec.target, reference: spec.reference, stats, test: scorePairs([], groups) };
    if (opts.split !== 'train') report.test = scorePairs(readPairs(path.join(dir, spec.test)), groups);
    if (spec.train && opts.split !== 'test') report.train = scorePairs(readPairs(path.join(dir, spec.train)), groups);
    reports.push(report);
  }
  return reports;
}

const f = (x: number): string => x.toFixed(3);

function printReport(reports: DataSetReport[]): void {
  console.log('data set       split  pairs    P      R      F1    target | Magellan DeepMatcher Ditto');
  for (const r of reports) {
    const rows: Array<[string, Metrics]> = [];
    if (r.test.pairs > 0) rows.push(['test', r.test]);
    if (r.train) rows.push(['train', r.train]);
    for (const [split, m] of rows) {
      console.log(
        `${r.name.padEnd(14)} ${split.padEnd(5)} ${String(m.pairs).padStart(6)}  ${f(m.precision)}  ${f(m.recall)}  ${f(m.f1)}  ${f(r.target)} | ${f(r.reference.magellan)}    ${f(r.reference.deepmatcher)}       ${f(r.reference.ditto)}`,
      );
    }
  }
  // Only the in-memory grading times the matcher alone (--in-memory).
  if (!reports.some((r) => r.stats)) return;
  console.log(`\nper-listing cost (in-memory index, candidates capped at ${MAX_CANDIDATES}, ${MAX_PER_KEY} a key; after one warm-up pass):`);
  for (const r of reports) {
    if (!r.stats) continue;
    const s = r.stats;
    console.log(
      `${r.name.padEnd(14)} ${s.listings} listings  total ${s.microsPerListing.toFixed(1)} µs/listing  profile+keys ${s.microsProfileKeys.toFixed(1)} µs  compare ${s.microsPerCompare.toFixed(2)} µs/candidate  candidates mean ${s.meanCandidates.toFixed(1)} max ${s.maxCandidates}  largest posting list ${s.maxPostings}`,
    );
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dataArg = args.indexOf('--data');
  const dataDir = dataArg >= 0 ? path.resolve(args[dataArg + 1]) : defaultDataDir;
  // The real ingest path by default; --in-memory grades the matcher alone (and reports its µs).
  const assign = args.includes('--in-memory') ? undefined : (await import('./ingest-assign.js')).ingestAssign;
  const reports = await runEvaluation({ dataDir, assign });
  if (reports === null) {
    console.error(`matching data not found in ${dataDir} (expected ../shared/data/matching next to the repository); nothing evaluated`);
    process.exit(2);
  }
  if (args.includes('--json')) console.log(JSON.stringify(reports, null, 2));
  else printReport(reports);
  const under = reports.filter((r) => r.test.f1 < r.target);
  for (const r of under) console.error(`UNDER TARGET: ${r.name} test F1 ${f(r.test.f1)} < ${f(r.target)}`);
  process.exit(under.length > 0 ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
