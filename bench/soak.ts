/**
 * `npm run soak -- --minutes N [--listings N] [--streams N] [--webhooks N] [--import-every S] [--changes N] [--seed N]`
 * A bounded soak (issue 25, item 4): a `catalog serve` on a fresh SQLite store holding `listings`
 * demo listings takes, all at once for N minutes, mixed read traffic on every surface (autocannon,
 * one instance per group: A, B, V2, MCP), a `catalog import` of `changes` price changes beside it
 * every `import-every` seconds, `streams` price streams (/v2/prices/stream) and `webhooks` webhook
 * subscriptions delivering to a local receiver that verifies each signature (standardwebhooks).
 * Every 30 s and at the end it prints requests, 5xx, connection errors, p99 per group and the
 * server's RSS. It fails (exit 1) on any 5xx or connection error; any 4xx (the mix holds valid
 * requests only and the tiers are unlimited); a failed import; a stream that did not get exactly
 * its events; a webhook delivery missing, repeated or badly signed; or memory that is not flat:
 * after a warm-up (the first fifth of the run, at most 2 minutes), the peak RSS of the last third
 * of the samples (every 5 s) may exceed the peak of the first third by at most 10 %.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { generateDemoRecords } from '../src/demo/generate.js';
import { compareStream, PriceStream } from './price-stream.js';
import { freePort, rssMb, untilReady } from './processes.js';
import { queryMix } from './query-mix.js';
import { soakGroups } from './soak-groups.js';
import { changeFile, type Listing } from './soak-changes.js';
import { GroupStats, quantile, runGroup } from './soak-traffic.js';
import { WebhookSink } from './webhook-sink.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    listings: { type: 'string', default: '20000' },
    streams: { type: 'string', default: '20' },
    webhooks: { type: 'string', default: '2' },
    'import-every': { type: 'string', default: '20' },
    changes: { type: 'string', default: '300' },
    seed: { type: 'string', default: '1' },
  },
});
const SECONDS = Math.round(Number(args.minutes) * 60);
const LISTINGS = Number(args.listings);
const STREAMS = Number(args.streams);
const root = join(import.meta.dirname, '..');
const out = join(root, 'bench', 'out', `soak-${process.pid}`);
mkdirSync(out, { recursive: true });
const db = join(out, 'catalog.db');
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();
const elapsed = () => Math.round((Date.now() - started) / 1000);

const env = {
  ...process.env, DATABASE_URL: `sqlite:${db}`, CATALOG_DEMO: 'off', LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_HOSTS: '127.0.0.1', MAX_CONNECTIONS_PER_ADDRESS: '0', TIERS_FILE: join(out, 'tiers.json'),
};
function cli(...a: string[]): string {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'catalog.js'), ...a], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`catalog ${a.join(' ')} failed: ${r.stderr}`);
  return r.stdout.trim();
}
/** An import beside the server, not blocking this process (its load generators run here). */
function importAsync(file: string): Promise<{ ok: boolean; summary: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(root, 'bin', 'catalog.js'), 'import', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    p.stdout!.on('data', (d) => { output += d; });
    p.stderr!.on('data', (d) => { output += d; });
    p.once('exit', (code) => resolve({ ok: code === 0, summary: output.trim().split('\n').pop() ?? '' }));
  });
}

async function main() {
  // Rate limits would cap the soak itself: its tiers are unlimited for this run.
  writeFileSync(env.TIERS_FILE, JSON.stringify({ enterprise: { per_minute: 100_000_000, per_day: null }, pro: { per_minute: 100_000_000, per_day: null } }));
  console.log(`generating ${LISTINGS} listings...`);
  const listings: Listing[] = [];
  const base: string[] = [];
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const r of generateDemoRecords({ listings: LISTINGS, seed: Number(args.seed), historyDays: 0, now: anHourAgo })) {
    const rec = { ...r, observed_at: anHourAgo.toISOString() };
    listings.push({ record: rec, price: String(r.price) });
    base.push(JSON.stringify(rec));
  }
  writeFileSync(join(out, 'base.ndjson'), base.join('\n') + '\n');
  cli('migrate');
  console.log(cli('import', join(out, 'base.ndjson'), '--batch', '2000').split('\n').pop());
  const key = cli('keys', 'create', '--tier', 'enterprise', '--name', 'soak').split('\n').pop()!;
  const streamKeys = Array.from({ length: Math.ceil(STREAMS / 10) }, (_, k) => cli('keys', 'create', '--tier', 'pro', '--name', `soak-streams-${k}`).split('\n').pop()!);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, [join(root, 'bin', 'catalog.js'), 'serve'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'inherit', 'inherit'] });
  let serverExit: number | null | undefined;
  server.once('exit', (code) => { serverExit = code; });
  const sink = await new WebhookSink().start();
  try {
    await untilReady(url);
    const auth = { authorization: `Bearer ${key}` };
    const exported = (await (await fetch(`${url}/v1/products/export?format=json&limit=2000&offset=0`, { headers: auth })).json()) as Array<{ id: number; uuid: string; sku: string }>;
    const queries = queryMix(listings.slice(0, 5000).map((l) => String(l.record.title))).all;
    const groups = soakGroups({ ids: exported.map((e) => e.id), uuids: exported.map((e) => e.uuid), skus: exported.map((e) => e.sku), queries });

    const subs: string[] = [];
    for (let i = 0; i < Number(args.webhooks); i++) {
      const res = await fetch(`${url}/v1/webhooks`, {
        method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: sink.url(`/hook/${i}`), events: ['price_change'], filters: { min_price_change_pct: 0 } }),
      });
      if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
      const s = (await res.json()) as { id: string; secret: string };
      sink.accept(`/hook/${i}`, s.secret);
      subs.push(s.id);
    }
    const streams = Array.from({ length: STREAMS }, (_, i) => new PriceStream(url, streamKeys[Math.floor(i / 10)]));
    await Promise.all(streams.map((s) => s.open()));

    const stats = groups.map((g) => new GroupStats(g.name));
    const rss: Array<{ t: number; mb: number }> = [];
    const sampleRss = () => rss.push({ t: elapsed(), mb: rssMb(server.pid!) });
    sampleRss();
    const sampler = setInterval(sampleRss, 5_000);
    let imports = 0;
    let importFailures = 0;
    let changesSent = 0;
    let windowStart = Date.now();
    const report = () => {
      const w = stats.map((s) => ({ name: s.name, ...s.takeWindow() }));
      const reqs = w.reduce((n, g) => n + g.total, 0);
      const secs = Math.max(1, (Date.now() - windowStart) / 1000);
      windowStart = Date.now();
      console.log(`[${String(elapsed()).padStart(4)} s] ${reqs} req (${Math.round(reqs / secs)}/s), 5xx ${w.reduce((n, g) => n + g.s5xx, 0)}, conn errors ${w.reduce((n, g) => n + g.connErrors, 0)}; p99 ${w.map((g) => `${g.name} ${g.p99.toFixed(0)} ms`).join(', ')}; RSS ${rssMb(server.pid!)} MB; imports ${imports}, stream events ${streams.reduce((n, s) => n + s.ids.length, 0)}, webhook receipts ${sink.receipts.length}`);
    };
    const soakStart = Date.now();
    windowStart = soakStart;
    const reporter = setInterval(report, 30_000);
    const importer = (async () => {
      for (let round = 1; Date.now() - soakStart < (SECONDS - 5) * 1000; round++) {
        await tick(Number(args['import-every']) * 1000);
        if (Date.now() - soakStart >= SECONDS * 1000) break;
        const file = join(out, `changes-${round}.ndjson`);
        changesSent += changeFile(file, listings, Number(args.changes), Number(args.seed) * 100_003 + round, new Date());
        const r = await importAsync(file);
        imports++;
        if (!r.ok) {
          importFailures++;
          console.error(`import ${round} failed: ${r.summary}`);
        }
        rmSync(file, { force: true });
      }
    })();
    await Promise.all(groups.map((g, i) => runGroup(url, auth, g, SECONDS, stats[i])));
    await importer;
    clearInterval(reporter);
    if (Date.now() - windowStart > 2_000) report();

    // Let the streams and the webhook deliveries catch up with the log, then compare.
    const log = new Database(db, { readonly: true, fileMustExist: true });
    const priceIds = log.prepare("SELECT id FROM events WHERE kind = 'price_change' ORDER BY id").pluck().all() as number[];
    const fromIds = subs.map((id) => log.prepare('SELECT from_event_id FROM webhook_subscriptions WHERE id = ?').pluck().get(id) as number);
    const owedHooks = fromIds.reduce((n, from) => n + priceIds.filter((e) => e > from).length, 0);
    const owedStream = (s: PriceStream) => priceIds.filter((id) => id > s.startId!);
    for (let i = 0; i < 600 && (sink.distinct() < owedHooks || streams.some((s) => s.ids.length < owedStream(s).length)); i++) await tick(100);
    await tick(500);
    const stored = log.prepare("SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status").all() as Array<{ status: string; n: number }>;
    log.close();
    clearInterval(sampler);
    sampleRss();
    for (const s of streams) s.stop();

    // Verdicts.
    const streamChecks = streams.map((s) => compareStream(s.ids, owedStream(s)));
    const exactStreams = streamChecks.filter((c) => c.exact).length;
    const hookRepeats = sink.receipts.length - sink.distinct();
    const warm = Math.min(120, SECONDS / 5);
    const after = rss.filter((r) => r.t >= warm + (rss[0]?.t ?? 0));
    const third = Math.max(1, Math.floor(after.length / 3));
    const firstMax = Math.max(...after.slice(0, third).map((r) => r.mb));
    const lastMax = Math.max(...after.slice(-third).map((r) => r.mb));
    const flat = lastMax <= firstMax * 1.1;
    const mid = rss[Math.floor(rss.length / 2)];
    const totalReq = stats.reduce((n, s) => n + s.total, 0);
    const total5xx = stats.reduce((n, s) => n + s.s5xx, 0);
    const totalConn = stats.reduce((n, s) => n + s.connErrors, 0);
    const total4xx = stats.reduce((n, s) => n + s.s4xx, 0);
    console.log(`\nSoak: ${args.minutes} min, ${LISTINGS} listings (SQLite), ${STREAMS} price streams, ${subs.length} webhook subscriptions, an import of ${args.changes} price changes every ${args['import-every']} s\n`);
    console.log('| group | connections | requests | req/s | 2xx | 4xx | 5xx | conn errors | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [i, s] of stats.entries()) {
      console.log(`| ${s.name} | ${groups[i].connections} | ${s.total} | ${Math.round(s.total / SECONDS)} | ${s.ok} | ${s.s4xx} | ${s.s5xx} | ${s.connErrors} | ${quantile(s.latencies, 0.5).toFixed(1)} | ${quantile(s.latencies, 0.99).toFixed(1)} |`);
    }
    console.log(`| all | ${groups.reduce((n, g) => n + g.connections, 0)} | ${totalReq} | ${Math.round(totalReq / SECONDS)} | | | ${total5xx} | ${totalConn} | | ${quantile(stats.flatMap((s) => s.latencies), 0.99).toFixed(1)} |`);
    console.log(`\nimports: ${imports} (${importFailures} failed), ${changesSent} price changes sent, ${priceIds.length} price_change events logged`);
    console.log(`streams: ${exactStreams} of ${STREAMS} got exactly their events (${streams.reduce((n, s) => n + s.ids.length, 0)} events; missing ${streamChecks.reduce((n, c) => n + c.missing, 0)}, extra or repeated ${streamChecks.reduce((n, c) => n + c.extra, 0)}; reconnects ${streams.reduce((n, s) => n + s.reconnects, 0)})`);
    console.log(`webhooks: ${sink.distinct()} of ${owedHooks} deliveries received (repeats ${hookRepeats}, bad signatures ${sink.invalid}); store: ${stored.map((s) => `${s.status} ${s.n}`).join(', ')}`);
    console.log(`server RSS: start ${rss[0].mb} MB, mid (${mid.t} s) ${mid.mb} MB, end ${rss.at(-1)!.mb} MB; after a ${warm} s warm-up, peak of the first third ${firstMax} MB, of the last third ${lastMax} MB -> ${flat ? 'flat' : 'GROWING'} (bound: +10 %)`);
    console.log(`RSS over time (MB, every 30 s): ${rss.filter((_, k) => k % 6 === 0).map((r) => r.mb).join(' ')}`);
    const failures = [
      total5xx && `${total5xx} 5xx`, total4xx && `${total4xx} 4xx (a wrong request in the mix, or a limit)`, totalConn && `${totalConn} connection errors`, importFailures && `${importFailures} failed imports`,
      exactStreams !== STREAMS && 'streams missed or repeated events', sink.distinct() !== owedHooks && 'webhook deliveries missing',
      hookRepeats && 'webhook deliveries repeated', sink.invalid && 'bad webhook signatures', !flat && 'RSS grew', serverExit !== undefined && `server exited (${serverExit})`,
    ].filter(Boolean);
    console.log(failures.length ? `\nFAILED: ${failures.join('; ')}` : '\nPASSED');
    if (failures.length) process.exitCode = 1;
  } finally {
    server.kill('SIGTERM');
    if (serverExit === undefined) await new Promise((r) => server.once('exit', r));
    await sink.close();
    rmSync(out, { recursive: true, force: true });
  }
}

await main();
