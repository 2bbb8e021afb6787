import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { generateDemoRecords } from '../src/demo/generate.js';
import { Rng } from '../src/demo/prng.js';
import { checkDrill, type Check, type DrillFacts, type SentListing } from './fault-check.js';
import { PriceStream } from './price-stream.js';
import { freePort, untilReady } from './processes.js';
import { movedPrice } from './soak-changes.js';
import { WebhookSink } from './webhook-sink.js';

/**
 * Fault drills (issue 25, item 4): `kill -9` of `catalog serve` and of `catalog import` at seeded
 * random points while imports, webhook deliveries, price streams and key registrations go on;
 * each killed import is run again, each killed server started again, and at the end
 * `fault-check.ts` compares the store with everything that was sent. A kill is SIGKILL to the
 * whole process group (the import's wrapper and its worker die at the same instant).
 */
export interface DrillOptions {
  seed: number;
  dir: string;
  listings: number;
  rounds: number;
  changesPerRound: number;
  newPerRound: number;
  /** Chance that a round's import is killed, and that the server is killed during a round. */
  importKillChance: number;
  serverKillChance: number;
  streams: number;
  subscriptions: number;
  /** Subscriptions receive the moves of at least this many percent (moves are 3 % to 15 %). */
  hookMinPct: number;
  /** Records per import transaction (`catalog import --batch`): smaller, more points to be killed between. */
  batch: number;
  log: (line: string) => void;
}

export interface DrillResult {
  seed: number; importKills: number; serverKills: number; registrations: number; checks: Check[]; ok: boolean;
  /** What the checker was given: a test can change the store and check again. */
  facts: DrillFacts;
}

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'catalog.js');
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runDrill(o: DrillOptions): Promise<DrillResult> {
  const rng = new Rng(o.seed);
  const db = join(o.dir, 'catalog.db');
  const tiers = join(o.dir, 'tiers.json');
  writeFileSync(tiers, JSON.stringify({ enterprise: { per_minute: 100_000_000, per_day: null }, unverified: { per_minute: 100_000, per_day: null } }));
  const env = {
    ...process.env, DATABASE_URL: `sqlite:${db}`, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off', LOG_LEVEL: 'warn', TIERS_FILE: tiers,
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_BASE_MS: '200', REGISTRATION_PER_IP_PER_HOUR: '100000',
  };
  const children = new Set<ChildProcess>();
  const output: string[] = [];
  const launch = (argv: string[], extra: Record<string, string> = {}) => {
    const p = spawn(process.execPath, [bin, ...argv], { env: { ...env, ...extra }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout!.on('data', (d) => output.push(String(d)));
    p.stderr!.on('data', (d) => output.push(String(d)));
    children.add(p);
    p.once('exit', () => children.delete(p));
    return p;
  };
  const exited = (p: ChildProcess) => new Promise<number | null>((r) => (p.exitCode !== null || p.signalCode !== null ? r(p.exitCode) : p.once('exit', (code) => r(code))));
  const killHard = async (p: ChildProcess) => {
    try {
      process.kill(-p.pid!, 'SIGKILL');
    } catch { /* already gone */ }
    await exited(p);
  };
  let importKills = 0;
  let serverKills = 0;
  /** How many lines of a round (all observed at `at`) the store holds: how far an import got. */
  let reader: Database.Database | null = null;
  const storedAt = (at: string): number => {
    try {
      reader ??= new Database(db, { readonly: true, fileMustExist: true });
      return reader.prepare('SELECT count(*) FROM observations WHERE observed_at = ?').pluck().get(at) as number;
    } catch {
      return 0; // no store, or no table yet
    }
  };
  const bulkMarked = () => {
    try {
      return ((reader ??= new Database(db, { readonly: true, fileMustExist: true })).prepare('SELECT count(*) FROM bulk_load').pluck().get() as number) > 0;
    } catch {
      return false;
    }
  };
  /**
   * Runs a round's file through `catalog import`; when `killAt` is given (a fraction of its lines),
   * kills it once the store holds that many of them (0: as soon as it starts), then runs it again
   * until it finishes. A kill lands while the import writes its next batches.
   */
  const importFile = async (name: string, round: number, file: string, killAt: number | null) => {
    if (killAt !== null) {
      const lines = readFileSync(file, 'utf8').trim().split('\n').length;
      const target = Math.floor(killAt * lines);
      const p = launch(['import', file, '--batch', String(o.batch)]);
      const started = Date.now();
      while (p.exitCode === null && p.signalCode === null && storedAt(at(round)) < target) await tick(1);
      if (p.exitCode === null && p.signalCode === null) {
        await killHard(p);
        importKills++;
        o.log(`  ${name}: import killed after ${Date.now() - started} ms at >= ${target} of ${lines} lines; ${storedAt(at(round))} were stored${bulkMarked() ? ', an interrupted bulk load left marked' : ''}`);
      } else o.log(`  ${name}: import finished (${p.exitCode}) before its kill at ${target} of ${lines} lines`);
    }
    for (let attempt = 0; ; attempt++) {
      const p = launch(['import', file, '--batch', String(o.batch)]);
      const code = await exited(p);
      if (code === 0) return;
      if (attempt === 2) throw new Error(`${name}: import exited ${code}:\n${output.slice(-20).join('')}`);
    }
  };

  // The input: demo listings observed at t0, then per round price moves and new listings.
  const t0 = Date.UTC(2026, 10, 1, 0, 0, 0);
  const at = (round: number) => new Date(t0 + round * 60_000).toISOString();
  const sent: SentListing[] = [];
  for (const r of generateDemoRecords({ listings: o.listings, seed: o.seed, historyDays: 0 })) {
    const record = { ...r, observed_at: at(0) };
    sent.push({ source: String(r.source).toLowerCase(), sku: String(r.sku), record, history: [{ at: at(0), price: String(r.price) }] });
  }
  const roundFile = (round: number, list: SentListing[]) => {
    const file = join(o.dir, `round-${round}.ndjson`);
    writeFileSync(file, list.map((l) => JSON.stringify({ ...l.record, price: l.history.at(-1)!.price, observed_at: l.history.at(-1)!.at })).join('\n') + '\n');
    return file;
  };
  const plan = Array.from({ length: o.rounds + 1 }, () => ({
    importKill: rng.chance(o.importKillChance) ? rng.int(0, 99) / 100 : null,
    serverKill: rng.chance(o.serverKillChance) ? { after: rng.int(0, 2000), down: rng.int(50, 1000) } : null,
  }));
  plan[0].serverKill = null; // the server starts after the first load
  o.log(`fault drill, seed ${o.seed}: ${o.listings} listings, ${o.rounds} rounds of ${o.changesPerRound} price changes and ${o.newPerRound} new listings`);
  o.log(`plan: ${plan.map((p, r) => `round ${r}: import ${p.importKill === null ? '-' : `kill at ${Math.round(p.importKill * 100)}% of its lines`}, server ${p.serverKill ? `kill@${p.serverKill.after}ms down ${p.serverKill.down}ms` : '-'}`).join('; ')}`);

  const sink = await new WebhookSink().start();
  const streams: PriceStream[] = [];
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  const recordedAtKill: Array<Set<string>> = [];
  const registered: Array<{ name: string; key: string; keyId: number }> = [];
  const unanswered: string[] = [];
  /** Registrations not answered 201, by status (0: no answer). */
  const refused = new Map<number, number>();
  let registering = true;
  try {
    await importFile('round 0 (a bulk load into the empty store)', 0, roundFile(0, sent), plan[0].importKill);
    const adminKey = spawnSync(process.execPath, [bin, 'keys', 'create', '--tier', 'enterprise', '--name', 'drill-admin'], { env, encoding: 'utf8' }).stdout.trim().split('\n').pop()!;
    const streamKey = spawnSync(process.execPath, [bin, 'keys', 'create', '--tier', 'pro', '--name', 'drill-streams'], { env, encoding: 'utf8' }).stdout.trim().split('\n').pop()!;
    const startServer = async () => {
      server = launch(['serve'], { PORT: String(port), HOST: '127.0.0.1' });
      await untilReady(base, 60_000);
    };
    await startServer();
    const subscriptions: string[] = [];
    for (let i = 0; i < o.subscriptions; i++) {
      const res = await fetch(`${base}/v1/webhooks`, {
        method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: sink.url(`/hook/${i}`), events: ['price_change'], filters: { min_price_change_pct: o.hookMinPct } }),
      });
      if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
      const s = (await res.json()) as { id: string; secret: string };
      sink.accept(`/hook/${i}`, s.secret);
      subscriptions.push(s.id);
    }
    for (let i = 0; i < o.streams; i++) streams.push(new PriceStream(base, streamKey));
    await Promise.all(streams.map((s) => s.open()));
    // Keys registered through the API all along, across the kills.
    const registrations = (async () => {
      for (let n = 0; registering; n++) {
        const name = `drill-${n}`;
        try {
          const res = await fetch(`${base}/v1/auth/register?verify=false`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_name: name }) });
          if (res.status === 201) {
            const body = (await res.json()) as { api_key: string; key_id: number };
            registered.push({ name, key: body.api_key, keyId: body.key_id });
          } else {
            unanswered.push(name);
            refused.set(res.status, (refused.get(res.status) ?? 0) + 1);
          }
        } catch {
          unanswered.push(name);
          refused.set(0, (refused.get(0) ?? 0) + 1);
        }
        await tick(100);
      }
    })();

    const killServer = async (after: number, down: number, round: number) => {
      await tick(after);
      const s = server!;
      await killHard(s);
      serverKills++;
      const store = new Database(db, { readonly: true });
      recordedAtKill.push(new Set(store.prepare("SELECT id FROM webhook_deliveries WHERE status = 'succeeded'").pluck().all() as string[]));
      store.close();
      o.log(`  round ${round}: server killed after ${after} ms (${recordedAtKill.at(-1)!.size} deliveries recorded as succeeded), down ${down} ms`);
      await tick(down);
      sink.epoch++;
      await startServer();
    };
    for (let round = 1; round <= o.rounds; round++) {
      const moved = new Set<number>();
      while (moved.size < Math.min(o.changesPerRound, sent.length)) moved.add(rng.int(0, sent.length - 1));
      const list: SentListing[] = [];
      for (const i of moved) {
        const l = sent[i];
        l.history.push({ at: at(round), price: movedPrice(l.history.at(-1)!.price, rng) });
        list.push(l);
      }
      for (let k = 0; k < o.newPerRound; k++) {
        const like = sent[rng.int(0, o.listings - 1)];
        const sku = `${like.sku}-R${round}N${k}`;
        const l = { source: like.source, sku, record: { ...like.record, sku }, history: [{ at: at(round), price: like.history[0].price }] };
        sent.push(l);
        list.push(l);
      }
      const p = plan[round];
      await Promise.all([
        importFile(`round ${round}`, round, roundFile(round, list), p.importKill),
        p.serverKill ? killServer(p.serverKill.after, p.serverKill.down, round) : null,
      ]);
    }
    registering = false;
    await registrations;

    // Let every delivery and every stream finish, then stop the server as an operator would.
    const store = new Database(db, { readonly: true });
    const pending = store.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").pluck();
    const logged = store.prepare("SELECT id FROM events WHERE kind = 'price_change' ORDER BY id").pluck();
    for (let i = 0; i < 600; i++) {
      const ids = logged.all() as number[];
      const behind = streams.some((s) => s.ids.length < ids.filter((id) => id > s.startId!).length);
      if (!behind && pending.get() === 0 && sink.distinct() >= (store.prepare('SELECT count(*) FROM webhook_deliveries').pluck().get() as number)) break;
      await tick(100);
    }
    store.close();
    await tick(300);
    for (const s of streams) s.stop();
    server!.kill('SIGTERM');
    const code = await exited(server!);
    const facts: DrillFacts = { db, sent, subscriptions, sink, recordedAtKill, streams, registered, unanswered, serverExit: code };
    const checks = checkDrill(facts);
    await checkKeysServe(base, registered, checks, startServer, () => server!, exited);
    for (const c of checks) o.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
    const ok = checks.every((c) => c.ok);
    o.log(`registrations not answered 201: ${[...refused].map(([status, n]) => `${status || 'no answer'} x${n}`).join(', ') || 'none'}`);
    o.log(`${ok ? 'PASSED' : 'FAILED'}: seed ${o.seed}, ${importKills} import kills, ${serverKills} server kills, ${registered.length} keys registered`);
    return { seed: o.seed, importKills, serverKills, registrations: registered.length, checks, ok, facts };
  } finally {
    registering = false;
    for (const s of streams) s.stop();
    for (const p of children) await killHard(p);
    (reader as Database.Database | null)?.close();
    await sink.close();
  }
}

/** Every acknowledged key still authenticates, as itself, on a server started once more. */
async function checkKeysServe(
  base: string, registered: Array<{ key: string; keyId: number }>, checks: Check[],
  start: () => Promise<void>, current: () => ChildProcess, exited: (p: ChildProcess) => Promise<number | null>,
): Promise<void> {
  await start();
  let wrong = 0;
  for (const r of registered) {
    const res = await fetch(`${base}/v1/auth/me`, { headers: { authorization: `Bearer ${r.key}` } });
    const body = res.status === 200 ? ((await res.json()) as { key_id: number }) : null;
    if (body?.key_id !== r.keyId) wrong++;
  }
  current().kill('SIGTERM');
  await exited(current());
  checks.push({ name: 'keys authenticate', ok: wrong === 0, detail: `${registered.length - wrong} of ${registered.length} acknowledged keys answer /v1/auth/me as themselves after the last restart` });
}
