/**
 * `npm run bench:streams -- [--clients N] [--changes N] [--listings N] [--unfiltered N] [--via cli|http]`
 * Event streams under load (issue 22): a server on a fresh SQLite store holds `listings` listings;
 * `clients` price streams are opened on it (10 per key), `unfiltered` of them with no filter and
 * the others each watching 10 listings (product_ids); then `changes` price changes are imported,
 * by a `catalog import` run beside the server (default; the server's tail finds them by polling
 * the log) or through POST /v1/ingest/products (`--via http`). Reports whether every client got
 * exactly the events of the log that match its filter (no gap, no duplicate), the latency to its
 * arrival at the client from the event's commit (when it first shows in the log, polled by this
 * process every 10 ms) and from its created_at (stamped when its line was read, before the commit:
 * an upper bound that includes the import's own batching), and the server's RSS: before the
 * clients, with them open, at its peak during the import, after.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, statSync, createReadStream } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createParser } from 'eventsource-parser';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { createSqliteStore } from '../src/store/sqlite/index.js';
import { freePort, rssPeakMb } from './processes.js';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    changes: { type: 'string', default: '10000' },
    listings: { type: 'string', default: '1000' },
    unfiltered: { type: 'string', default: '20' },
    via: { type: 'string', default: 'cli' },
  },
});
const CLIENTS = Number(args.clients);
const CHANGES = Number(args.changes);
const LISTINGS = Number(args.listings);
const UNFILTERED = Math.min(CLIENTS, Number(args.unfiltered));
const WATCHED = 10;
const root = join(import.meta.dirname, '..');
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });
const db = join(out, `streams-${process.pid}.db`);
const changesFile = join(out, `streams-changes-${process.pid}.ndjson`);
const DATABASE_URL = `sqlite:${db}`;

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};
const line = (i: number, price: string, observed?: string) => JSON.stringify({
  source: 'shopee_sg', sku: `BENCH-${i}`, title: `Bench listing ${i} wireless earbuds noise cancelling`, price, currency: 'SGD',
  url: `https://shop.example.com/bench/${i}`, brand: 'Bench', category: 'Earbuds', category_path: ['Electronics', 'Audio', 'Earbuds'],
  in_stock: true, stock_level: 'high', ...(observed ? { observed_at: observed } : {}),
});

/** The store prepared beside the server, as the CLI would: base listings and the keys (10 streams each). */
async function prepare(): Promise<{ keys: string[]; ids: number[] }> {
  const c = await createContainer(loadConfig({ DATABASE_URL, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off' }));
  const { Readable } = await import('node:stream');
  const base = Array.from({ length: LISTINGS }, (_, i) => line(i, '100.00', new Date(Date.now() - 60_000).toISOString())).join('\n');
  await c.ingest.ingestStream(Readable.from([base]));
  const ids: number[] = [];
  for (let i = 0; i < LISTINGS; i++) ids.push((await c.catalog.findBySku(`BENCH-${i}`))[0].id);
  const keys: string[] = [];
  for (let k = 0; k < Math.ceil(CLIENTS / 10); k++) keys.push((await c.keys.create({ tier: 'pro', name: `bench-${k}`, verified: true })).apiKey);
  await c.close();
  // The changes: rounds over every listing, each a new price (no observed_at: stamped when read).
  const file = createWriteStream(changesFile);
  for (let n = 0; n < CHANGES; n++) {
    const round = Math.floor(n / LISTINGS) + 1;
    file.write(line(n % LISTINGS, `${100 + (round % 2 ? round : -round)}.00`) + '\n');
  }
  await new Promise<void>((r) => file.end(() => r()));
  return { keys, ids };
}

interface Client {
  watch: Set<number> | null; ids: number[]; latencies: number[]; res: IncomingMessage | null;
  /** The last id any message carried: what a reconnection sends as Last-Event-ID. */
  lastId: string | null;
  /** Times the server dropped this client (a slow reader) and it resumed. */
  resumed: number;
  stopped: boolean;
}

/** A price stream that, like EventSource, reconnects with Last-Event-ID when the server ends it. */
function openClient(base: string, key: string, watch: number[] | null, agent: Agent, clients: Client[]): Promise<Client> {
  const client: Client = { watch: watch ? new Set(watch) : null, ids: [], latencies: [], res: null, lastId: null, resumed: 0, stopped: false };
  clients.push(client);
  const path = `/v2/prices/stream${watch ? `?product_ids=${watch.join(',')}` : ''}`;
  const connect = (onReady: () => void, onError: (e: Error) => void) => {
    const parser = createParser({
      onEvent: (m) => {
        if (m.id !== undefined) client.lastId = m.id;
        if (m.event === 'ready') onReady();
        else if (m.event === 'price_change') {
          client.ids.push(Number(m.id));
          client.latencies.push(Date.now()); // arrival; the event's commit time is subtracted later
        }
      },
    });
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'text/event-stream' };
    if (client.lastId !== null) headers['last-event-id'] = client.lastId;
    const req = request(`${base}${path}`, { agent, headers }, (res) => {
      client.res = res;
      if (res.statusCode !== 200) return onError(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('close', () => {
        if (client.stopped) return;
        client.resumed++;
        connect(() => undefined, (e) => console.error(`resume failed: ${e.message}`));
      });
    });
    req.on('error', onError);
    req.end();
  };
  return new Promise((resolve, reject) => connect(() => resolve(client), reject));
}

function ingestHttp(base: string, key: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v1/ingest/products`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson', 'content-length': statSync(changesFile).size },
    }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`ingest answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    createReadStream(changesFile).pipe(req);
  });
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

async function main() {
  rmSync(db, { force: true });
  console.log(`preparing ${LISTINGS} listings, ${Math.ceil(CLIENTS / 10)} keys and ${CHANGES} price changes...`);
  const { keys, ids } = await prepare();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env, DATABASE_URL, PORT: String(port), HOST: '127.0.0.1', CATALOG_DEMO: 'off', LOG_LEVEL: 'warn', MAX_CONNECTIONS_PER_ADDRESS: '0',
  };
  const server = spawn(process.execPath, [join(root, 'bin/catalog.js'), 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${base}/health`)).ok) break;
      } catch { /* not yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    const rssIdle = rssMb(server.pid!);
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const clients: Client[] = [];
    const opening = Date.now();
    for (let i = 0; i < CLIENTS; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, CLIENTS - i) }, (_, j) => {
        const n = i + j;
        const watch = n < UNFILTERED ? null : Array.from({ length: WATCHED }, (_, k) => ids[(n * 7 + k * 131) % LISTINGS]);
        return openClient(base, keys[Math.floor(n / 10)], watch, agent, clients);
      }));
    }
    console.log(`${CLIENTS} streams open in ${((Date.now() - opening) / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, 1000));
    const rssOpen = rssMb(server.pid!);
    let rssPeak = rssOpen;
    const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rssMb(server.pid!)); }, 100);
    const log = createSqliteStore(db);
    const start = await log.events.lastId();
    // Commit times: when each event first shows in the log, polled here every 10 ms (a later
    // poll than the commit only shortens the latency measured from it; the line-read time bounds it from above).
    const committed = new Map<number, number>();
    let seen = start;
    const watcher = setInterval(() => void log.events.readAfter(seen, 1_000_000, ['price_change']).then((evs) => {
      const now = Date.now();
      for (const e of evs) if (!committed.has(e.id)) committed.set(e.id, now);
      if (evs.length) seen = evs[evs.length - 1].id;
    }), 10);
    const importing = Date.now();
    if (args.via === 'http') await ingestHttp(base, keys[0]);
    else {
      const r = spawnSync(process.execPath, [join(root, 'bin/catalog.js'), 'import', changesFile], { env: { ...env, PORT: '0' }, stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) throw new Error('catalog import failed');
    }
    const importSecs = (Date.now() - importing) / 1000;
    const logged = (await log.events.readAfter(start, 10_000_000, ['price_change']));
    const createdAt = new Map(logged.map((e) => [e.id, Date.parse(e.createdAt)]));
    const expectedFor = (c: Client) => logged.filter((e) => !c.watch || c.watch.has(e.change.listing.id)).map((e) => e.id);
    const expected = clients.map(expectedFor);
    const complete = () => clients.every((c, i) => c.ids.length >= expected[i].length);
    const waitUntil = Date.now() + 60_000;
    while (!complete() && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 100));
    const drained = (Date.now() - importing) / 1000;
    clearInterval(watcher);
    await new Promise((r) => setTimeout(r, 500)); // anything past the expected would be a duplicate
    clearInterval(sampler);
    const rssAfter = rssMb(server.pid!);
    let exact = 0;
    let missing = 0;
    let extra = 0;
    const latencies: number[] = [];
    const fromCommit: number[] = [];
    const fromCommitOf = { watching: [] as number[], unfiltered: [] as number[] };
    clients.forEach((c, i) => {
      const got = c.ids;
      const want = expected[i];
      if (got.length === want.length && got.every((id, k) => id === want[k])) exact++;
      const wantSet = new Set(want);
      const gotSet = new Set(got);
      missing += want.filter((id) => !gotSet.has(id)).length;
      extra += got.length - got.filter((id) => wantSet.has(id)).length + (got.length - gotSet.size);
      c.ids.forEach((id, k) => {
        latencies.push(c.latencies[k] - createdAt.get(id)!);
        const at = committed.get(id);
        if (at === undefined) return;
        fromCommit.push(Math.max(0, c.latencies[k] - at));
        fromCommitOf[c.watch ? 'watching' : 'unfiltered'].push(Math.max(0, c.latencies[k] - at));
      });
    });
    latencies.sort((a, b) => a - b);
    for (const l of [fromCommit, fromCommitOf.watching, fromCommitOf.unfiltered]) l.sort((a, b) => a - b);
    const row = (name: string, l: number[]) => `| ${name} | ${quantile(l, 0.5)} ms | ${quantile(l, 0.99)} ms | ${l.at(-1)} ms |`;
    for (const c of clients) {
      c.stopped = true;
      c.res?.destroy();
    }
    const resumed = clients.reduce((n, c) => n + c.resumed, 0);
    await log.close();
    const messages = latencies.length;
    console.log(`
| clients | of them unfiltered | price changes | import (${args.via}) | all delivered after | events delivered |
|---:|---:|---:|---:|---:|---:|
| ${CLIENTS} | ${UNFILTERED} | ${logged.length} | ${importSecs.toFixed(1)} s | ${drained.toFixed(1)} s | ${messages} |

| clients with exactly their events | events missing | events extra or twice | drops (slow reader) resumed by Last-Event-ID |
|---:|---:|---:|---:|
| ${exact} of ${CLIENTS} | ${missing} | ${extra} | ${resumed} |

| latency | p50 | p99 | max |
|---|---:|---:|---:|
${row('commit (seen in the log) to client', fromCommit)}
${row('&nbsp;&nbsp;clients watching 10 listings', fromCommitOf.watching)}
${row(`&nbsp;&nbsp;unfiltered clients (every change)`, fromCommitOf.unfiltered)}
| line read (event created_at) to client | ${quantile(latencies, 0.5)} ms | ${quantile(latencies, 0.99)} ms | ${latencies.at(-1)} ms |

| server RSS idle | with ${CLIENTS} streams | peak during import | after | peak (VmHWM) |
|---:|---:|---:|---:|---:|
| ${rssIdle} MB | ${rssOpen} MB | ${rssPeak} MB | ${rssAfter} MB | ${rssPeakMb(server.pid!)} MB |
`);
    if (exact !== CLIENTS) process.exitCode = 1;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(db, { force: true });
    rmSync(`${db}-wal`, { force: true });
    rmSync(`${db}-shm`, { force: true });
    rmSync(changesFile, { force: true });
  }
}

await main();
