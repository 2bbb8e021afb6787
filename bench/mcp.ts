/**
 * `npm run bench:mcp -- --listings N [--duration S] [--keep]`
 * The cost of MCP over HTTP: the same searches (the query mix of run.ts, 20 results) asked as
 * `GET /v1/search?q=...&limit=20` and as a `search_products` tool call (`POST /mcp`, one JSON-RPC
 * message, stateless), against one server on a generated catalog of N listings (default 100,000,
 * SQLite, in-memory search index). Each at 32 connections (throughput, queueing included) and at 1
 * (latency alone), after a warm-up. Prints req/s, p50, p99 and the MCP call's p99 over REST's.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateDemoRecords } from '../src/demo/generate.js';
import { freePort } from './processes.js';
import { queryMix } from './query-mix.js';

const { values: args } = parseArgs({
  options: {
    listings: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
  },
});
const N = Number(args.listings);
const DURATION = Number(args.duration);
const WARMUP = 3;
const root = join(import.meta.dirname, '..');
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });
const file = join(out, `mcp-${N}-${process.pid}.ndjson`);
const db = join(out, `mcp-${N}-${process.pid}.db`);

function cli(env: NodeJS.ProcessEnv, argv: string[]): string {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'catalog.js'), ...argv], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`catalog ${argv.join(' ')} failed: ${r.stderr}`);
  return r.stdout.trim();
}

async function generate(): Promise<string[]> {
  const stream = createWriteStream(file);
  const titles: string[] = [];
  let i = 0;
  for (const r of generateDemoRecords({ listings: N, seed: 1, historyDays: 0, now: new Date() })) {
    if (!stream.write(JSON.stringify(r) + '\n')) await new Promise<void>((res) => stream.once('drain', () => res()));
    if (i++ % Math.max(1, Math.floor(N / 5000)) === 0) titles.push(String(r.title));
  }
  await new Promise<void>((res) => stream.end(() => res()));
  return titles;
}

type Req = { method: 'GET' | 'POST'; path: string; body?: string };

async function load(name: string, url: string, connections: number, req: (i: number) => Req, headers: Record<string, string>) {
  let i = 0;
  const run = (duration: number) => autocannon({
    url, connections, duration, headers,
    requests: [{ setupRequest: (r) => ({ ...r, ...req(i++) }) }],
  });
  await run(WARMUP);
  const r = await run(DURATION);
  return { name, connections, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function main() {
  console.log(`generating ${N} listings...`);
  const titles = await generate();
  const port = await freePort();
  rmSync(db, { force: true });
  const tiers = join(out, `mcp-tiers-${process.pid}.json`);
  // Rate limits would cap the load test itself: the bench key's tier is unlimited for this run.
  writeFileSync(tiers, JSON.stringify({ enterprise: { per_minute: 100_000_000, per_day: null } }));
  const env = { ...process.env, DATABASE_URL: `sqlite:${db}`, CATALOG_DEMO: 'off', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', TIERS_FILE: tiers };
  console.log(cli(env, ['import', file, '--batch', '2000']).split('\n').pop());
  const key = cli(env, ['keys', 'create', '--tier', 'enterprise', '--name', 'bench']).split('\n').pop()!;
  const server: ChildProcess = spawn(process.execPath, [join(root, 'bin', 'catalog.js'), 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 3000; i++) {
    try {
      const h = (await (await fetch(`${base}/health`)).json()) as { status?: string; search_index?: string };
      if (h.status === 'ok' && h.search_index !== 'building') break;
    } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  const queries = queryMix(titles).all;
  const auth = { authorization: `Bearer ${key}` };
  const rest = (i: number): Req => ({ method: 'GET', path: `/v1/search?q=${encodeURIComponent(queries[i % queries.length])}&limit=20` });
  const mcp = (i: number): Req => ({
    method: 'POST', path: '/mcp',
    body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_products', arguments: { query: queries[i % queries.length], limit: 20 } } }),
  });
  const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  // One call of each, checked: the same total, so both did the same search.
  const a = (await (await fetch(`${base}${rest(0).path}`, { headers: auth })).json()) as { total: number };
  const m = (await (await fetch(`${base}/mcp`, { method: 'POST', headers: mcpHeaders, body: mcp(0).body })).json()) as { result: { structuredContent: { total: number } } };
  if (a.total !== m.result.structuredContent.total) throw new Error(`REST found ${a.total}, MCP ${m.result.structuredContent.total}`);

  const results = [];
  for (const connections of [32, 1]) {
    results.push(await load('REST GET /v1/search (20)', base, connections, rest, auth));
    results.push(await load('MCP search_products (20)', base, connections, mcp, mcpHeaders));
  }
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
  console.log(`\nMCP vs REST search, SQLite, ${N} listings, ${DURATION}s each (queries: ${queries.length}, limit 20)`);
  console.log('| request | connections | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  for (const c of [32, 1]) {
    const [r, q] = results.filter((x) => x.connections === c);
    console.log(`p99 at ${c} connection(s): MCP ${q.p99} ms vs REST ${r.p99} ms (+${(q.p99 - r.p99).toFixed(2)} ms)`);
  }
  if (!args.keep) for (const f of [file, db, `${db}-wal`, `${db}-shm`, tiers]) rmSync(f, { force: true });
}

await main();
