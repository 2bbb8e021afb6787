/**
 * `npm run bench:ingest -- [--base N] [--lines N] [--connections N]`
 * Other clients while one client ingests: a server on a fresh SQLite store holding `base` listings
 * (imported through the CLI) is read by autocannon (listing pages and searches, `connections` at
 * once) before and during one POST /v1/ingest/products of `lines` new NDJSON lines, streamed over
 * HTTP. Prints the readers' p50/p99/max latency in both phases, the ingest's lines/s and the
 * server's peak RSS (issue 18 item 4: readers' p99 under 100 ms during a 100,000-line ingest).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort, rssPeakMb } from './processes.js';
import { generateDemoRecords } from '../src/demo/generate.js';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: '20000' },
    lines: { type: 'string', default: '100000' },
    connections: { type: 'string', default: '8' },
  },
});
const BASE = Number(args.base);
const LINES = Number(args.lines);
const root = join(import.meta.dirname, '..');
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });
const baseFile = join(out, `ingest-base-${process.pid}.ndjson`);
const bodyFile = join(out, `ingest-body-${process.pid}.ndjson`);
const db = join(out, `ingest-${process.pid}.db`);

async function write(file: string, n: number, seed: number, skuPrefix: string): Promise<string[]> {
  const stream = createWriteStream(file);
  const titles: string[] = [];
  let i = 0;
  for (const r of generateDemoRecords({ listings: n, seed, historyDays: 0, now: new Date() })) {
    const line = JSON.stringify({ ...r, sku: `${skuPrefix}${String(r.sku)}` }) + '\n';
    if (!stream.write(line)) await new Promise<void>((res) => stream.once('drain', () => res()));
    if (i++ % 200 === 0) titles.push(String(r.title).split(' ').slice(0, 2).join(' '));
  }
  await new Promise<void>((res) => stream.end(() => res()));
  return titles;
}



function readers(base: string, key: string, paths: string[], until: () => boolean, seconds: number) {
  let i = 0;
  return new Promise<{ requests: number; p50: number; p99: number; max: number; errors: number }>((resolve, reject) => {
    const instance = autocannon({
      url: base, connections: Number(args.connections), duration: seconds, headers: { authorization: `Bearer ${key}` },
      requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
    }, (err, r) => {
      clearInterval(stop);
      if (err) return reject(err);
      resolve({ requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, errors: r.errors + r.non2xx });
    });
    const stop = setInterval(() => { if (until()) instance.stop(); }, 100);
  });
}

function ingest(base: string, key: string): Promise<{ status: number; body: string; secs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v1/ingest/products`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson', 'content-length': statSync(bodyFile).size },
    }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body, secs: (Date.now() - started) / 1000 }));
    });
    req.on('error', reject);
    createReadStream(bodyFile).pipe(req);
  });
}

async function main() {
  console.log(`generating ${BASE} base listings and a ${LINES}-line ingest body...`);
  const titles = await write(baseFile, BASE, 1, '');
  await write(bodyFile, LINES, 2, 'NEW-');
  const port = await freePort();
  rmSync(db, { force: true });
  const tiers = join(out, `ingest-tiers-${process.pid}.json`);
  writeFileSync(tiers, JSON.stringify({ enterprise: { per_minute: 100_000_000, per_day: null } }));
  const env = { ...process.env, DATABASE_URL: `sqlite:${db}`, CATALOG_DEMO: 'off', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', TIERS_FILE: tiers };
  const cli = (argv: string[]) => spawnSync(process.execPath, [join(root, 'bin', 'catalog.js'), ...argv], { env, encoding: 'utf8' }).stdout.trim();
  cli(['import', baseFile]);
  const key = cli(['keys', 'create', '--tier', 'enterprise', '--name', 'bench']).split('\n').pop()!;
  if (!key.startsWith('ck_')) throw new Error('could not create the bench key');
  const server = spawn(process.execPath, [join(root, 'bin', 'catalog.js'), 'serve'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      const h = (await (await fetch(`${base}/health`)).json()) as { status?: string; search_index?: string };
      if (h.status === 'ok' && h.search_index !== 'building') break;
    } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  const paths = [
    ...Array.from({ length: 50 }, (_, i) => `/v1/products?limit=20&offset=${i * 20}`),
    ...titles.slice(0, 50).map((t, i) => `/v1/search?q=${encodeURIComponent(t)}&limit=20&_n=${i}`),
  ];
  const quiet = await readers(base, key, paths, () => false, 10);
  let done = false;
  const during = readers(base, key, paths, () => done, 600);
  const ing = await ingest(base, key);
  done = true;
  const loaded = await during;
  const rss = rssPeakMb(server.pid!);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  const summary = JSON.parse(ing.body) as { inserted?: number; rejected?: number };
  console.log(`\nbase ${BASE} listings; ingest of ${LINES} lines (${(statSync(bodyFile).size / 1e6).toFixed(1)} MB): HTTP ${ing.status}, `
    + `inserted ${summary.inserted}, rejected ${summary.rejected}, ${ing.secs.toFixed(1)} s = ${Math.round(LINES / ing.secs)} lines/s`);
  console.log(`| readers (${args.connections} connections) | requests | p50 ms | p99 ms | max ms | errors |\n|---|---|---|---|---|---|`);
  console.log(`| no ingest (10 s) | ${quiet.requests} | ${quiet.p50} | ${quiet.p99} | ${quiet.max} | ${quiet.errors} |`);
  console.log(`| during the ingest | ${loaded.requests} | ${loaded.p50} | ${loaded.p99} | ${loaded.max} | ${loaded.errors} |`);
  console.log(`server peak RSS ${rss} MB`);
  for (const f of [baseFile, bodyFile, tiers, db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
}

await main();
