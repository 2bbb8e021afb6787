/**
 * `npm run bench -- --listings N [--store sqlite|postgres] [--duration S] [--pool N] [--keep]
 *   [--db FILE|URL] [--only REGEX] [--loadgen wrk|autocannon]`
 * Generates N listings, imports them through the real CLI, imports the same feed a day later (every
 * tenth price up 1%: the re-import), starts the service, and loads it with wrk where it is
 * installed (else autocannon; `--loadgen` chooses) at 32 connections: id detail, SKU detail (a
 * repeating set, and cold: never the same request twice), id detail with an OAuth client's access
 * token, listing (20), search (a fixed mix of one- to three-word queries including words in >10% of
 * titles), each after a warm-up, plus a bare Fastify handler returning 1 KB of JSON as the ceiling,
 * run between the endpoints (each endpoint's share is of the runs just before and after it); the
 * batch endpoints also at one connection and against bare Fastify answering their own (about 100
 * KB) JSON, and the listing page against bare Fastify sending its same 26 KB, kept; B and V2 search
 * with their answers cached (a few dozen queries, cached 60 s) and uncached; and each latency
 * target alone on one connection. Where the machine has two CPUs and taskset, the service and the
 * ceiling run on one, the load generator on the other. Writes the results as JSON to bench/out.
 * Prints req/s, p50, p99, ratio to the ceiling, import lines/s and the server's peak RSS. Then, on
 * stores of their own, the chart benchmark, event streams (bench/streams.ts: commit-to-client
 * latency) and webhook deliveries (bench/webhooks.ts: signed deliveries per second), whose figures
 * join the result file.
 * `--keep` keeps the catalog (SQLite: its file; PostgreSQL: its schema) and its sample; `--db FILE`
 * (SQLite) or `--db 'postgres://...?schema=bench_<pid>'` loads such a kept catalog again without
 * generating or importing; `--only` runs the endpoints whose name matches
 * (and the ceiling), and no chart, stream or webhook benchmark.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuMicros, cpuSplit, freePort, pinned, pinSelf, rssPeakMb } from './processes.js';
import { generateDemoRecords } from '../src/demo/generate.js';
import { parsePostgresUrl } from '../src/store/postgres/index.js';
import { queryMix } from './query-mix.js';
import { wrk, wrkVersion, type LoadRun, type WrkRequest } from './wrk.js';
import { RANKED, reimportFigures, renderRealtime, renderResult, streamFigures, webhookFigures, type BenchResult, type Row } from './report.js';

const { values: args } = parseArgs({
  options: {
    listings: { type: 'string', default: '100000' },
    store: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    keep: { type: 'boolean', default: false },
    /** PostgreSQL: the server's pool size (PG_POOL_MAX); unset keeps the service's default. */
    pool: { type: 'string' },
    /** A catalog kept by an earlier `--keep` run (SQLite: its file, `.sample.json` beside it; PostgreSQL: the URL of its schema), loaded as it is. */
    db: { type: 'string' },
    /** Only the endpoints whose name matches this regular expression (the ceiling always runs). */
    only: { type: 'string' },
    /** `wrk` or `autocannon`; unset: wrk where it is installed, else autocannon. */
    loadgen: { type: 'string' },
  },
});
const only = args.only ? new RegExp(args.only, 'i') : null;
const N = Number(args.listings);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const root = join(import.meta.dirname, '..');
if (args.loadgen && !['wrk', 'autocannon'].includes(args.loadgen)) throw new Error(`--loadgen ${args.loadgen}: wrk or autocannon`);
const WRK_VERSION = args.loadgen === 'autocannon' ? null : wrkVersion();
if (args.loadgen === 'wrk' && !WRK_VERSION) throw new Error('--loadgen wrk: wrk is not installed (Debian: apt-get install wrk)');
const WRK = WRK_VERSION !== null;
const autocannonVersion = () => (JSON.parse(readFileSync(join(root, 'node_modules', 'autocannon', 'package.json'), 'utf8')) as { version: string }).version;
const LOAD_GENERATOR = WRK_VERSION ?? `autocannon ${autocannonVersion()}`;
// Read at the start: a commit made while a long run goes on is not the code it measured.
const COMMIT = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });
// Per process: two benchmarks at once must not write one file or database.
const file = join(out, `catalog-${N}-${process.pid}.ndjson`);
const SQLITE_DB = args.store === 'sqlite' && args.db ? args.db : join(out, `bench-${N}-${process.pid}.db`);
/** PostgreSQL: a schema of its own, or with --db the kept one its URL names (`?schema=bench_<pid>`). */
const PG_SCHEMA = args.store === 'postgres' && args.db ? parsePostgresUrl(args.db).schema ?? 'public' : `bench_${process.pid}`;
/** The SKUs and titles the paths are made of, kept beside a kept catalog. */
const SAMPLE = args.store === 'postgres' ? join(out, `${PG_SCHEMA}.sample.json`) : `${SQLITE_DB}.sample.json`;

/** The same feed a day later (issue 27 item 4's re-import): every tenth price up 1%, every line observed a day later. */
const nextDayFile = join(out, `catalog-${N}-${process.pid}-next-day.ndjson`);
const DAY_MS = 86_400_000;

/** A decimal price string 1% higher, rounded up in its last digit: exact, in the digits it was written with. */
function upOnePercent(price: string): string {
  const [whole, fraction = ''] = price.split('.');
  const minor = BigInt(whole + fraction);
  const next = String(minor + (minor + 99n) / 100n).padStart(fraction.length + 1, '0');
  return fraction ? `${next.slice(0, -fraction.length)}.${next.slice(-fraction.length)}` : next;
}

async function generate(): Promise<{ skus: string[]; titles: string[] }> {
  const streams = [createWriteStream(file), createWriteStream(nextDayFile)];
  const write = async (i: number, r: unknown) => {
    if (!streams[i].write(JSON.stringify(r) + '\n')) await new Promise<void>((res) => streams[i].once('drain', () => res()));
  };
  const skus: string[] = [];
  const titles: string[] = [];
  let i = 0;
  // Observed up to a day ago: the next day's feed is observed up to now.
  for (const r of generateDemoRecords({ listings: N, seed: 1, historyDays: 0, now: new Date(Date.now() - DAY_MS) })) {
    await write(0, r);
    const price = i % 10 === 0 ? upOnePercent(String(r.price)) : r.price;
    await write(1, { ...r, price, observed_at: new Date(Date.parse(String(r.observed_at)) + DAY_MS).toISOString() });
    if (i++ % Math.max(1, Math.floor(N / 5000)) === 0) { skus.push(String(r.sku)); titles.push(String(r.title)); }
  }
  await Promise.all(streams.map((st) => new Promise<void>((res) => st.end(() => res()))));
  return { skus, titles };
}

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function psql(sql: string): void {
  spawnSync('psql', [PG_URL, '-q', '-c', sql], { stdio: 'ignore' });
}

/** Ranked full-text queries PostgreSQL is running for other sessions (the baseline's and the service's). */
function rankedQueriesRunning(): number {
  const r = spawnSync('psql', [PG_URL, '-Atc', "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%ts_rank%' AND pid <> pg_backend_pid()"], { encoding: 'utf8' });
  return Number(r.stdout.trim()) || 0;
}

/**
 * Waits, a minute at most, until PostgreSQL has finished the ranked queries a row left behind: one
 * the load generator gave up on still runs to its statement timeout, and the ceiling measured next
 * would share the cores with it (a ceiling of 631 req/s after the ts_rank row, bench/RESULTS.md).
 */
async function untilRankedQueriesEnd(): Promise<void> {
  const start = Date.now();
  while (rankedQueriesRunning() > 0 && Date.now() - start < 60_000) await new Promise((r) => setTimeout(r, 250));
  if (Date.now() - start > 1000) console.log(`waited ${((Date.now() - start) / 1000).toFixed(1)} s for PostgreSQL's abandoned ranked queries`);
}

/** The row, once PostgreSQL has finished what it left behind. */
async function quiet(measured: Promise<Row | null>): Promise<Row | null> {
  const row = await measured;
  await untilRankedQueriesEnd();
  return row;
}

function databaseUrl(): string {
  if (args.store === 'postgres') {
    if (args.db) return args.db;
    psql(`DROP SCHEMA IF EXISTS ${PG_SCHEMA} CASCADE; CREATE SCHEMA ${PG_SCHEMA}`);
    return `${PG_URL}?schema=${PG_SCHEMA}`;
  }
  const db = SQLITE_DB;
  if (args.db) return `sqlite:${db}`;
  rmSync(db, { force: true }); rmSync(`${db}-wal`, { force: true }); rmSync(`${db}-shm`, { force: true });
  return `sqlite:${db}`;
}

/** Every CPU, where this process pins itself to the load generator's (its children inherit that). */
const ALL_CPUS = cpuSplit() ? `0-${availableParallelism() - 1}` : undefined;

/** What `catalog import` reports of a bulk load's steps on standard error (src/cli/main.ts), kept in the result. */
const BULK_STEP = /^(?:bulk load into an empty store|read indexes built|the bulk load ended early)/;

function cli(env: NodeJS.ProcessEnv, argv: string[], steps?: string[]): string {
  // The import is measured as a user runs it, on the whole machine (until 2026-11-27 it ran on the
  // load generator's one CPU).
  const [cmd, args] = pinned(ALL_CPUS, process.execPath, [join(root, 'bin', 'catalog.js'), ...argv]);
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  // An import that died (a 3,000,000-line run once printed nothing at all) would leave the rows
  // measuring a catalog of unknown size: the run stops here, with how it ended.
  if (r.status !== 0) throw new Error(`catalog ${argv.join(' ')} failed (exit ${r.status ?? r.signal}): ${r.stderr.slice(-4000)}`);
  steps?.push(...r.stderr.split('\n').filter((line) => BULK_STEP.test(line)));
  return r.stdout.trim();
}

/**
 * Each endpoint is first loaded for WARMUP seconds, unmeasured (JIT, connection pools, and for the
 * repeating path sets, the response cache), then for DURATION. `path(i)` gives the i-th request's
 * path; the measured run goes on from where the warm-up stopped, so a cold row never repeats one.
 */
const WARMUP = 3;
/**
 * Request numbers run on across every load (warm-up, measured run, the one-connection run): a
 * "cold" request is never one an earlier run asked, which the response cache would answer.
 */
let sequence = 0;
async function load(name: string, url: string, path: (i: number) => string, headers: Record<string, string>, body?: (i: number) => unknown,
  connections = CONNECTIONS, warmup = WARMUP): Promise<Row | null> {
  if (only && name !== CEILING && !only.test(name)) return null;
  const generate = WRK ? byWrk : byAutocannon;
  await generate(url, connections, warmup, headers, path, body);
  const pid = servedBy.get(url);
  const cpu0 = pid ? cpuMicros(pid) : NaN;
  const r = await generate(url, connections, DURATION, headers, path, body);
  const cpuUs = pid ? Math.round(((cpuMicros(pid) - cpu0) / Math.max(1, r.requests)) * 10) / 10 : NaN;
  return { name, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, bytes: r.bytesPerAnswer, ...(Number.isFinite(cpuUs) ? { cpuUs } : {}) };
}

/** One load of `url`: the i-th request asks `path(i)`, POSTing `body(i)` where given. */
type Generator = (url: string, connections: number, seconds: number, headers: Record<string, string>,
  path: (i: number) => string, body?: (i: number) => unknown) => Promise<LoadRun>;

const byAutocannon: Generator = async (url, connections, duration, headers, path, body) => {
  const r = await autocannon({
    url, connections, duration, headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    requests: [{
      setupRequest: (req) => {
        const n = sequence++;
        if (body) return { ...req, method: 'POST', path: path(n), body: JSON.stringify(body(n)) };
        return { ...req, path: path(n) };
      },
    }],
  });
  return {
    requests: r.requests.total, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx,
    bytesPerAnswer: Math.round(r.throughput.total / Math.max(1, r.requests.total)),
  };
};

/**
 * wrk sends a list written before the run, so the list must be long enough. A `cycle` has its
 * whole period. Other paths (a cold row) get as many as the ceiling (the latest run, at 125%) could
 * answer in the run, and at most 256 MB of them. A run that runs out is an error, because it would
 * have asked some twice. The warm-up's rate does not bound a cold row's run: the run is faster
 * once the warm-up has brought the store's pages into memory.
 */
const byWrk: Generator = async (url, connections, duration, headers, path, body) => {
  const request = (i: number): WrkRequest => (body ? { method: 'POST', path: path(i), body: JSON.stringify(body(i)) } : { method: 'GET', path: path(i) });
  const period = body ? undefined : (path as Partial<Periodic>).period;
  const first = sequence;
  const count = period ?? Math.ceil(Math.min(1.25 * (ceilings.at(-1)?.rps ?? 40_000) * duration,
    (256 << 20) / (JSON.stringify(request(first)).length + 64)));
  // Made one at a time as the file is written: a cold row's list is up to about 875,000 requests.
  const list = function* () {
    for (let k = 0; k < count; k++) yield request(first + k);
  };
  const r = await wrk(url, connections, duration, body ? { ...headers, 'content-type': 'application/json' } : headers, list());
  // Requests still in flight when the run stopped were sent too, and wrk takes one it never sends.
  const used = r.requests + connections + 1;
  sequence += period ? used : Math.min(count, used);
  if (!period && used > count) throw new Error(`${url}: ${r.requests} requests in ${duration} s, past the ${count} written for the run`);
  return r;
};

/** An OAuth client registered with the bench key, and the Authorization header of an access token it was given. */
async function accessTokenHeaders(base: string, headers: Record<string, string>): Promise<Record<string, string>> {
  const post = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { ...extra, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const client = await post('/v1/oauth/register', { client_name: 'bench', client_type: 'confidential' }, headers);
  const token = await post('/v1/oauth/token', { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
  return { authorization: `Bearer ${token.access_token}` };
}

/**
 * A cached GET answer of many KB measured against its own ceiling as well: bare Fastify sending the
 * same bytes, kept, to the same number of connections. With autocannon, at 26 KB a page, the load
 * generator's reading of the answers bounds both, which the 1 KB ceiling does not show.
 */
async function sized(name: string, base: string, paths: string[], headers: Record<string, string>): Promise<Row[]> {
  const row = await endpoint(load(name, base, cycle(paths), headers));
  if (!row) return [];
  const answer = Buffer.from(await (await fetch(`${base}${paths[0]}`, { headers })).arrayBuffer());
  return [row, await ownCeiling(row, '/bytes', answer)];
}

/**
 * `row`'s own ceiling (set on it, and returned as a row of its own): bare Fastify given `answer`,
 * loaded as the row was. `/answer` serializes the JSON per request (POST, with `body`); `/bytes`
 * sends the bytes as they are (GET).
 */
async function ownCeiling(row: Row, route: '/answer' | '/bytes', answer: string | Buffer, body?: (i: number) => unknown): Promise<Row> {
  const type = route === '/answer' ? 'application/json' : 'application/octet-stream';
  await fetch(`${bare.url}${route}`, { method: 'PUT', headers: { 'content-type': type }, body: answer });
  const own = (await load(CEILING, bare.url, cycle([route]), {}, body))!;
  row.own = own.rps;
  return { ...own, name: `  its ceiling: bare Fastify, the same ${Math.round(answer.length / 1024)} KB answer${route === '/bytes' ? ', kept' : ''}` };
}

/** The process answering at each base URL: a row's server CPU per request is read from it. */
const servedBy = new Map<string, number>();
/** Paths asked again and again: `period` distinct requests, sent round. */
type Periodic = ((i: number) => string) & { period: number };
const cycle = (paths: string[]): Periodic => Object.assign((i: number) => paths[i % paths.length], { period: paths.length });
const CEILING = 'bare fastify 1KB (ceiling)';

/**
 * A batch endpoint (about 100 KB of JSON per answer) measured three ways: at CONNECTIONS, at one
 * connection (latency without queueing), and against its own ceiling, bare Fastify answering the
 * same JSON (one of the endpoint's real answers, serialized per request) to the same requests at
 * CONNECTIONS. The 1 KB ceiling says nothing about what 100 KB answers allow.
 */
async function batch(name: string, base: string, path: string, headers: Record<string, string>, body: (i: number) => unknown): Promise<Row[]> {
  const row = await endpoint(load(name, base, () => path, headers, body));
  if (!row) return [];
  const answer = await (await fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body(0)) })).text();
  const own = await ownCeiling(row, '/answer', answer, body);
  const single = (await load(name, base, () => path, headers, body, 1))!;
  return [row, own, { ...single, name: `  ${name}, 1 connection` }];
}

/**
 * The ceiling runs between endpoints (ceiling, endpoint, ceiling, ...): each endpoint is compared
 * with the runs just before and after it, so a machine that drifts shows as spread, not as a ratio.
 */
const ceilings: Row[] = [];
async function ceiling(): Promise<void> {
  ceilings.push((await load(CEILING, bare.url, cycle(['/bare']), {}, undefined, CONNECTIONS, ceilings.length ? 1 : WARMUP))!);
}
async function endpoint(measured: Promise<Row | null>): Promise<Row | null> {
  const row = await measured;
  if (!row) return null;
  const before = ceilings.at(-1)!;
  await ceiling();
  const after = ceilings.at(-1)!;
  row.neighbours = [before.rps, after.rps];
  if (before.cpuUs && after.cpuUs) row.neighbourCpuUs = [before.cpuUs, after.cpuUs];
  return row;
}

/**
 * Issue 27 item 3, side by side on the same schema and query mix: PostgreSQL's own ranked
 * full-text query (ts_rank over the GIN index of listings.tsv, bench/pg-ranked.ts, behind bare
 * Fastify), and the service answering from PostgreSQL alone (SEARCH_INDEX=off: ts_rank_cd with
 * the total and facets), each at CONNECTIONS and on one connection.
 */
async function postgresRanked(env: NodeJS.ProcessEnv, tiers: string, cpus: string | undefined, search: string[], headers: Record<string, string>): Promise<Row[]> {
  const rows: Array<Row | null> = [];
  if (!only || only.test(RANKED)) {
    const ranked = await startScript('pg-ranked.ts', cpus, env);
    try {
      const paths = search.map((p) => p.replace('/v1/search?', '/search?'));
      rows.push(await endpoint(quiet(load(RANKED, ranked.url, cycle(paths), {}))), await load(`  ${RANKED}, 1 connection`, ranked.url, cycle(paths), {}, undefined, 1));
    } finally {
      await stopServer(ranked.child);
      await untilRankedQueriesEnd();
    }
  }
  const name = 'search (limit 20, mix), the service on PostgreSQL alone (SEARCH_INDEX=off)';
  if (!only || only.test(name)) {
    const { server, base } = await startServer({ ...env, TIERS_FILE: tiers, SEARCH_INDEX: 'off' }, await freePort(), cpus);
    try {
      rows.push(await endpoint(quiet(load(name, base, cycle(search), headers))), await load(`  ${name}, 1 connection`, base, cycle(search), headers, undefined, 1));
    } finally {
      await stopServer(server);
      await untilRankedQueriesEnd();
    }
  }
  return rows.filter((r) => r !== null);
}

/** A bench script serving HTTP in its own process (pinned to `cpus` where given), once it has printed its port. */
async function startScript(script: string, cpus: string | undefined, env: NodeJS.ProcessEnv = process.env) {
  const [cmd, argv] = pinned(cpus, process.execPath, ['--import', 'tsx', join(root, 'bench', script)]);
  const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
  const url = `http://127.0.0.1:${port}`;
  // Pinned, the child is taskset, which executes the script in its own process: the same pid.
  servedBy.set(url, child.pid!);
  return { child, url };
}

const bare = { url: '', stop: () => undefined as void };
async function startBare(cpus: string | undefined): Promise<void> {
  const { child, url } = await startScript('bare-server.ts', cpus);
  bare.url = url;
  bare.stop = () => void child.kill('SIGTERM');
}

/**
 * A `catalog serve` on `port` (pinned to `cpus` where given), ready: listening and, unless
 * SEARCH_INDEX=off, its search index built (the store answers search until then).
 */
async function startServer(env: NodeJS.ProcessEnv, port: number, cpus: string | undefined) {
  const [serve, serveArgs] = pinned(cpus, process.execPath, [join(root, 'bin', 'catalog.js'), 'serve']);
  const server: ChildProcess = spawn(serve, serveArgs, { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  servedBy.set(base, server.pid!);
  const start = Date.now();
  for (let i = 0; i < 3000; i++) {
    try {
      const h = (await (await fetch(`${base}/health`)).json()) as { search_index?: string };
      if (h.search_index !== 'building') break;
    } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { server, base, readySecs: (Date.now() - start) / 1000 };
}

async function stopServer(server: ChildProcess): Promise<void> {
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}

async function main() {
  let sample: { skus: string[]; titles: string[] };
  if (args.db) {
    if (!existsSync(SAMPLE)) throw new Error(`${SAMPLE} missing: --db takes a catalog kept by --keep`);
    sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as typeof sample;
  } else {
    console.log(`generating ${N} listings...`);
    sample = await generate();
  }
  const { skus, titles } = sample;
  const split = cpuSplit();
  if (split) pinSelf(split.load);
  console.log(split ? `pinned: service and ceiling on CPU ${split.service}, load generator on CPU ${split.load}`
    : 'NOT pinned (one CPU or no taskset): the service, the ceiling and the load generator share the CPUs');
  const why = args.loadgen === 'autocannon' ? 'as asked' : 'wrk is not installed';
  console.log(`load generator: ${LOAD_GENERATOR}${WRK ? '' : ` (${why}: autocannon's reading of large answers limits their rows)`}`);
  const port = await freePort();
  const env = {
    ...process.env, DATABASE_URL: databaseUrl(), CATALOG_DEMO: 'off', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1',
    ...(args.pool ? { PG_POOL_MAX: args.pool } : {}),
  };
  cli(env, ['migrate']);
  const t0 = Date.now();
  const importSteps: string[] = [];
  const imported = args.db ? '' : cli(env, ['import', file, '--batch', '2000'], importSteps);
  const importSecs = (Date.now() - t0) / 1000;
  if (imported) console.log(imported.split('\n').pop());
  const t1 = Date.now();
  const reimported = args.db ? '' : cli(env, ['import', nextDayFile]);
  const reimportSecs = (Date.now() - t1) / 1000;
  if (reimported) console.log(`re-import a day later: ${reimported.split('\n').pop()}`);
  if (args.keep && !args.db) writeFileSync(SAMPLE, JSON.stringify(sample));
  if (args.store === 'postgres' && !args.db) {
    // What autovacuum does after a bulk insert (statistics, and the visibility map index-only scans
    // need); it may be off or not have come round yet, and the load test should not measure that.
    const v0 = Date.now();
    psql(`VACUUM (ANALYZE) ${PG_SCHEMA}.listings, ${PG_SCHEMA}.block_keys, ${PG_SCHEMA}.observations, ${PG_SCHEMA}.events`);
    console.log(`VACUUM (ANALYZE) after the import: ${((Date.now() - v0) / 1000).toFixed(1)} s`);
  }
  const key = cli(env, ['keys', 'create', '--tier', 'enterprise', '--name', 'bench']).split('\n').pop()!;
  // Rate limits would cap the load test itself: the bench key's tier is unlimited for this run.
  const tiers = join(out, 'tiers.json');
  createWriteStream(tiers).end(JSON.stringify({ enterprise: { per_minute: 100_000_000, per_day: null } }));
  const { server, base, readySecs } = await startServer({ ...env, TIERS_FILE: tiers }, port, split?.service);
  console.log(`server ready (search index built) ${readySecs.toFixed(1)} s after start`);
  const headers = { authorization: `Bearer ${key}` };
  const maxId = N;
  const ids = Array.from({ length: 2000 }, (_, i) => `/v1/products/${1 + ((i * 7919) % maxId)}`);
  // As many as the id set, well inside the response cache (5,000 entries): a cycle through exactly as
  // many keys as an LRU holds hits every time, one more misses every time.
  const skuPaths = skus.slice(0, 2000).map((s) => `/v1/products/${encodeURIComponent(s)}`);
  const listing = Array.from({ length: 200 }, (_, i) => `/v1/products?limit=20&offset=${i * 20}`);
  // One mix for every surface's search rows (computing it prints it).
  const mix = queryMix(titles).all;
  const search = mix.map((q) => `/v1/search?q=${encodeURIComponent(q)}&limit=20`);

  await startBare(split?.service);
  await ceiling();
  const all: Array<Row | null> = [];
  all.push(await endpoint(load('id detail (2,000 ids)', base, cycle(ids), headers)));
  all.push(await endpoint(load('SKU detail (2,000 SKUs)', base, cycle(skuPaths), headers)));
  // A client's access token acts for the key that registered it: its requests should cost what the key's do.
  all.push(await endpoint(load('id detail, OAuth access token (2,000 ids)', base, cycle(ids), await accessTokenHeaders(base, headers))));
  // No If-None-Match row: autocannon's parser (the fallback load generator) reads a 304 without Content-Length to the end of the
  // connection (each request then waits out the keep-alive timeout); test/http/etag.test.ts checks 304s.
  // Cold: every request a product not asked for before (7919 is prime to N when N is a power of ten),
  // so it is read from the store, never from the response cache.
  all.push(await endpoint(load('id detail, cold (no id twice)', base, (i) => `/v1/products/${1 + ((i * 7919) % maxId)}`, headers)));
  all.push(await endpoint(load('SKU detail, cold (no URL twice)', base, (i) => `/v1/products/${encodeURIComponent(skus[i % skus.length])}?_n=${i}`, headers)));
  all.push(...await sized('listing (20)', base, listing, headers));
  all.push(await endpoint(load('search (limit 20, mix)', base, cycle(search), headers)));
  if (args.store === 'postgres') all.push(...await postgresRanked(env, tiers, split?.service, search, headers));
  // The same searches as an MCP tool call (issue 23: its p99 against REST's), queued and alone.
  const mcpCall = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_products', arguments: { query: mix[i % mix.length], limit: 20 } } });
  const mcpHeaders = { ...headers, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  all.push(await endpoint(load('MCP search_products (limit 20, mix)', base, () => '/mcp', mcpHeaders, mcpCall)));
  all.push(await load('  search (limit 20, mix), 1 connection', base, cycle(search), headers, undefined, 1));
  all.push(await load('  MCP search_products (limit 20, mix), 1 connection', base, () => '/mcp', mcpHeaders, mcpCall, 1));
  // Surface B, over the same catalog: UUIDs and category slugs as a client would read them.
  const exported = (await (await fetch(`${base}/v1/products/export?format=json&limit=2000&offset=0`, { headers })).json()) as Array<{ uuid: string }>;
  const uuids = exported.map((r) => r.uuid);
  const slugs = ((await (await fetch(`${base}/v1/categories?currency=SGD`, { headers })).json()) as { data: Array<{ slug: string }> }).data.map((c) => c.slug);
  const bSearch = mix.map((q) => `/v1/products/search?q=${encodeURIComponent(q)}&limit=20&region=SEA`);
  // B and V2 search answers are cached 60 s (spec 8.3), and the mix is a few dozen queries: the
  // cached rows measure the response cache; the uncached ones (an unused `_n`, spec 8.3's cache
  // buster) measure the search.
  const uncached = (paths: string[]) => (i: number) => `${paths[i % paths.length]}&_n=${i}`;
  all.push(await endpoint(load('B search (limit 20, mix, SEA), answers cached', base, cycle(bSearch), headers)));
  all.push(await endpoint(load('B search (limit 20, mix, SEA), uncached', base, uncached(bSearch), headers)));
  const bDetail = (i: number) => `/v1/products/${uuids[(i * 7919) % uuids.length]}?_n=${i}`;
  const similar = (i: number) => `/v1/products/${uuids[(i * 7919) % uuids.length]}/similar`;
  const category = (i: number) => `/v1/categories/${slugs[i % slugs.length]}?limit=20&offset=${(i % 5) * 20}`;
  all.push(await endpoint(load('B detail by UUID (2,000 UUIDs)', base, cycle(uuids.map((u) => `/v1/products/${u}`)), headers)));
  all.push(await endpoint(load('B detail by UUID, cold', base, bDetail, headers)));
  all.push(await endpoint(load('B similar (8)', base, similar, headers)));
  all.push(await endpoint(load('B category detail (20)', base, category, headers)));
  // Latency without queueing: at 32 connections on one core a p99 is mostly the wait behind the
  // other 31 requests.
  all.push(await load('  B search, uncached, 1 connection', base, uncached(bSearch), headers, undefined, 1));
  all.push(await load('  B detail by UUID, cold, 1 connection', base, bDetail, headers, undefined, 1));
  all.push(await load('  B similar (8), 1 connection', base, similar, headers, undefined, 1));
  all.push(await load('  B category detail (20), 1 connection', base, category, headers, undefined, 1));
  // 100 references of every form a user holds, a different window of them each request.
  const refs = exported.map((r, k) => (k % 3 === 0 ? r.uuid : k % 3 === 1 ? String((r as unknown as { id: number }).id) : (r as unknown as { sku: string }).sku));
  const window = (i: number, n: number) => Array.from({ length: n }, (_, k) => refs[(i * 37 + k) % refs.length]);
  all.push(...await batch('B bulk-lookup (100 mixed refs)', base, '/v1/products/bulk-lookup', headers, (i) => ({ ids: window(i, 100) })));
  // V2 and the agent endpoints.
  const idWindow = (i: number, n: number) => Array.from({ length: n }, (_, k) => 1 + ((i * 7919 + k * 104729) % maxId));
  const v2Search = mix.map((q) => `/v2/search?q=${encodeURIComponent(q)}&limit=20&region=sea`);
  all.push(await endpoint(load('V2 search (limit 20, mix), answers cached', base, cycle(v2Search), headers)));
  all.push(await endpoint(load('V2 search (limit 20, mix), uncached', base, uncached(v2Search), headers)));
  const agentSearch = mix.map((q) => `/v2/agents/search?q=${encodeURIComponent(q)}&limit=10&include_agent_insights=true`
    + '&include_price_history=true&include_availability_prediction=true&include_competitor_count=true');
  all.push(await endpoint(load('V2 agents search (all include switches)', base, cycle(agentSearch), headers)));
  all.push(await load('  V2 search, uncached, 1 connection', base, uncached(v2Search), headers, undefined, 1));
  all.push(await load('  V2 agents search, 1 connection', base, cycle(agentSearch), headers, undefined, 1));
  all.push(...await batch('V2 batch-details (100 ids)', base, '/v2/products/batch-details', headers, (i) => ({ product_ids: idWindow(i, 100) })));
  all.push(...await batch('V2 agents batch-lookup (100 ids)', base, '/v2/agents/batch-lookup', headers, (i) => ({ product_ids: idWindow(i, 100) })));
  all.push(...await batch('V2 agents compare-matrix (50 ids)', base, '/v2/agents/compare-matrix', headers, (i) => ({ product_ids: idWindow(i, 50) })));
  bare.stop();
  const results = all.filter((r) => r !== null);
  const rss = rssPeakMb(server.pid!);
  await stopServer(server);
  // A bulk load reports when its listings were stored and served, before it matched them.
  const stored = /stored in ([\d.]+) s/.exec(imported);
  // Machine-readable: what bench/RESULTS.md tables are written from.
  const json = join(out, `results-${args.store}-${N}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const result: BenchResult = {
    at: new Date().toISOString(), commit: COMMIT, store: args.store, listings: N, connections: CONNECTIONS, durationS: DURATION, pinned: split,
    loadGenerator: LOAD_GENERATOR,
    ceilings, rows: results, import: imported ? { seconds: importSecs, storedSeconds: stored ? Number(stored[1]) : null, steps: importSteps } : null,
    reimport: reimportFigures(reimported, reimportSecs), serverPeakRssMb: rss,
  };
  writeFileSync(json, JSON.stringify(result, null, 2));
  console.log(`\n${renderResult(result)}\n\nresults: ${json} (npx tsx bench/report.ts <file> prints this again)`);
  resultFile = json;
  if (args.keep && args.store === 'sqlite') console.log(`kept: ${SQLITE_DB} (again: --db ${SQLITE_DB})`);
  if (!args.keep && !args.db) for (const f of [file, nextDayFile, SQLITE_DB, `${SQLITE_DB}-wal`, `${SQLITE_DB}-shm`]) rmSync(f, { force: true });
  // The PostgreSQL catalog goes with it unless asked to keep it (--keep: inspect it with `?schema=bench_<pid>`).
  if (args.store === 'postgres') {
    if (args.keep || args.db) console.log(`kept: ${PG_URL}?schema=${PG_SCHEMA} (again: --db '${PG_URL}?schema=${PG_SCHEMA}')`);
    else psql(`DROP SCHEMA IF EXISTS ${PG_SCHEMA} CASCADE`);
  }
}

let resultFile: string | null = null;
await main();
// The chart benchmark (issue 24) is part of `npm run bench`; it takes no catalog size, so it runs as
// its own process rather than after `&&` in the script, which would hand it this run's arguments.
// On every CPU again: this process's pinning is inherited, and the chart bench is its own measurement.
if (!only) {
  const [chartCmd, chartArgs] = pinned(ALL_CPUS, process.execPath, ['--import', 'tsx', join(root, 'bench', 'chart.ts')]);
  const chart = spawnSync(chartCmd, chartArgs, { stdio: 'inherit' });
  if (chart.status !== 0) process.exitCode = chart.status ?? 1;
}

// Real time (issue 27: one run covers streams and webhook deliveries): each benchmark on its own
// fresh store and server, on every CPU; their figures join this run's result file.
if (!only && resultFile) {
  const run = (script: string) => {
    const [cmd, argv] = pinned(ALL_CPUS, process.execPath, ['--import', 'tsx', join(root, 'bench', script)]);
    const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
    process.stdout.write(r.stdout ?? '');
    if (r.status !== 0) process.exitCode = r.status ?? 1;
    return r.stdout ?? '';
  };
  const streams = run('streams.ts');
  const webhooks = run('webhooks.ts');
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as BenchResult;
  result.realtime = { streams: streamFigures(streams), webhooks: webhookFigures(webhooks) };
  writeFileSync(resultFile, JSON.stringify(result, null, 2));
  console.log(`\n${renderRealtime(result.realtime)}\nresults: ${resultFile} (updated)`);
}
