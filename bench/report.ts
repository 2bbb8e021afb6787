/**
 * `npx tsx bench/report.ts bench/out/results-....json`: the Markdown of one `npm run bench` result,
 * as bench/run.ts prints it and bench/RESULTS.md records it. Given several results (one store at
 * several sizes), their growth table instead.
 */
import { readFileSync } from 'node:fs';

/** The row of PostgreSQL's own ranked query (bench/pg-ranked.ts), which the report puts the service's search beside. */
export const RANKED = 'search (limit 20, mix), PostgreSQL ts_rank over GIN (bare Fastify + pg)';

export interface Row {
  name: string; rps: number; p50: number; p99: number; errors: number;
  /** The ceiling's req/s in the runs just before and just after this one. */
  neighbours?: [number, number];
  /** A batch endpoint's or a listing page's own ceiling (bare Fastify answering the same JSON, or sending the same bytes). */
  own?: number;
  /** The server's CPU time (user and system) per request answered in the measured run, µs. */
  cpuUs?: number;
  /** Bytes the load generator read an answer, status line and headers included (since 2026-12-01). */
  bytes?: number;
  /** The ceiling's CPU per request in the runs just before and after this one. */
  neighbourCpuUs?: [number, number];
}

export interface BenchResult {
  at: string; commit: string; store: string; listings: number; connections: number; durationS: number;
  pinned: { service: string; load: string } | null;
  /** As it names itself (`wrk debian/4.1.0-3+b2`, `autocannon 8.0.0`); results from before 2026-11-29 were autocannon's. */
  loadGenerator?: string;
  ceilings: Row[]; rows: Row[];
  /** `steps`: the bulk load's own report of its steps, as `catalog import` printed them (since 2026-12-01). */
  import: { seconds: number; storedSeconds: number | null; steps?: string[] } | null;
  /** The same feed imported again into the loaded store a day later, every tenth price changed (issue 27 item 4). */
  reimport?: { seconds: number; updated: number; unchanged: number } | null;
  serverPeakRssMb: number;
  /** bench/streams.ts and bench/webhooks.ts, run after the rows on stores of their own. */
  realtime?: Realtime;
}

export interface Realtime {
  streams: { clients: number; exact: number; p50Ms: number; p99Ms: number; maxMs: number } | null;
  webhooks: { perSecond: number; received: number; total: number; duplicates: number; badSignatures: number } | null;
}

/** What `catalog import` printed for the re-import, with its time; null when none ran. */
export function reimportFigures(printed: string, seconds: number): BenchResult['reimport'] {
  const counts = /updated (\d+), unchanged (\d+)/.exec(printed);
  return counts ? { seconds, updated: Number(counts[1]), unchanged: Number(counts[2]) } : null;
}

/** The figures of bench/streams.ts's report: clients with exactly their events, commit-to-client latency. */
export function streamFigures(text: string): Realtime['streams'] {
  const exact = /\| (\d+) of (\d+) \|/.exec(text);
  const latency = /\| commit \(seen in the log\) to client \| (\d+) ms \| (\d+) ms \| (\d+) ms \|/.exec(text);
  if (!exact || !latency) return null;
  return { clients: Number(exact[2]), exact: Number(exact[1]), p50Ms: Number(latency[1]), p99Ms: Number(latency[2]), maxMs: Number(latency[3]) };
}

/** The figures of bench/webhooks.ts's report: signed deliveries per second, and what arrived. */
export function webhookFigures(text: string): Realtime['webhooks'] {
  const rate = /-> (\d+) signed deliveries\/s sustained/.exec(text);
  const got = /received (\d+) of (\d+) \(duplicates (\d+), bad signatures (\d+)\)/.exec(text);
  if (!rate || !got) return null;
  return { perSecond: Number(rate[1]), received: Number(got[1]), total: Number(got[2]), duplicates: Number(got[3]), badSignatures: Number(got[4]) };
}

export function renderRealtime(r: Realtime): string {
  const s = r.streams;
  const w = r.webhooks;
  return [
    s ? `streams: ${s.exact} of ${s.clients} clients got exactly their events; commit to client p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, max ${s.maxMs} ms`
      : 'streams: no figures (see its output above)',
    w ? `webhooks: ${w.perSecond} signed deliveries/s sustained; ${w.received} of ${w.total} received, ${w.duplicates} twice, ${w.badSignatures} bad signatures`
      : 'webhooks: no figures (see its output above)',
  ].join('\n');
}

const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
/** A row's share of the mean of the ceilings run just before and after it; null without them. */
const shareOfNeighbours = (x: Row): string | null => (x.neighbours ? pct(x.rps, (x.neighbours[0] + x.neighbours[1]) / 2) : null);

export function renderResult(r: BenchResult): string {
  const c = r.ceilings.map((x) => x.rps);
  const p99s = r.ceilings.map((x) => x.p99);
  const cpus = r.ceilings.flatMap((x) => (x.cpuUs ? [x.cpuUs] : []));
  const lines = [
    `store ${r.store}, ${r.listings} listings, ${r.connections} connections, ${r.durationS} s each, commit ${r.commit}; `
      + (r.pinned ? `service and ceiling pinned to CPU ${r.pinned.service}, load generator to CPU ${r.pinned.load}` : 'NOT pinned')
      + `; load generator ${r.loadGenerator ?? 'autocannon'}`,
    `ceiling (bare Fastify, 1 KB JSON), ${c.length} runs between the endpoints: ${Math.min(...c)}-${Math.max(...c)} req/s, p99 ${Math.min(...p99s)}-${Math.max(...p99s)} ms`
      + (cpus.length ? `, ${Math.min(...cpus)}-${Math.max(...cpus)} µs of CPU a request` : ''),
    '',
    '| endpoint | req/s | p50 ms | p99 ms | of ceiling (before-after) | of its own ceiling | server CPU µs/req | by CPU | bytes/answer | errors |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const above: string[] = [];
  for (const x of r.rows) {
    const [b, a] = x.neighbours ?? [0, 0];
    const share = x.neighbours ? `${shareOfNeighbours(x)} (${pct(x.rps, b)}-${pct(x.rps, a)})` : '';
    if (x.neighbours && x.rps > Math.min(a, b)) above.push(x.name);
    if (x.own && x.rps > x.own) above.push(`${x.name} (its own ceiling)`);
    // By CPU: the ceiling's CPU per request over the endpoint's, as the share would be on a server doing nothing else.
    const byCpu = x.cpuUs && x.neighbourCpuUs ? pct((x.neighbourCpuUs[0] + x.neighbourCpuUs[1]) / 2, x.cpuUs) : '';
    lines.push(`| ${x.name} | ${x.rps} | ${x.p50} | ${x.p99} | ${share} | ${x.own ? pct(x.rps, x.own) : ''} | ${x.cpuUs ?? ''} | ${byCpu} | ${x.bytes ?? ''} | ${x.errors} |`);
  }
  const ranked = r.rows.find((x) => x.name === RANKED);
  const ours = r.rows.find((x) => x.name === 'search (limit 20, mix)');
  if (ranked && ours) {
    const side = `search side by side on PostgreSQL: the service's index ${ours.rps} req/s (p99 ${ours.p99} ms), PostgreSQL's own ts_rank query over its GIN index `;
    // No answer in the run (every query past autocannon's timeout) leaves nothing to divide by.
    lines.push('', ranked.rps > 0 ? `${side}${ranked.rps} req/s (p99 ${ranked.p99} ms): ${(ours.rps / ranked.rps).toFixed(1)}x`
      : `${side}answered no request within the run (${ranked.errors} errors): no ratio`);
  }
  if (above.length) lines.push('', `WARNING: above a neighbouring ceiling (not measured under the same conditions; see the spread): ${above.join('; ')}`);
  if (r.import) {
    const stored = r.import.storedSeconds ? `; stored and served after ${r.import.storedSeconds} s = ${Math.round(r.listings / r.import.storedSeconds)} lines/s, matched after that` : '';
    lines.push('', `import: ${r.listings} lines in ${r.import.seconds.toFixed(1)} s = ${Math.round(r.listings / r.import.seconds)} lines/s end to end${stored}`);
    for (const step of r.import.steps ?? []) lines.push(`  ${step}`);
  }
  if (r.reimport) {
    const total = r.reimport.updated + r.reimport.unchanged;
    lines.push(`re-import a day later: ${total} lines (${r.reimport.updated} updated, ${r.reimport.unchanged} unchanged) in ${r.reimport.seconds.toFixed(1)} s = ${Math.round(total / r.reimport.seconds)} lines/s`);
  }
  lines.push(`server peak RSS ${r.serverPeakRssMb} MB`);
  if (r.realtime) lines.push('', renderRealtime(r.realtime));
  return lines.join('\n');
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Results of one store at several sizes as one table (issue 27 item 5): each row's req/s, p99 and
 * share of its neighbouring ceilings by size, then the ceilings, the imports and the server's
 * memory, and how that memory grows a listing between sizes.
 */
export function renderGrowth(results: BenchResult[]): string {
  const runs = [...results].sort((a, b) => a.listings - b.listings);
  const names = [...new Set(runs.flatMap((r) => r.rows.map((x) => x.name)))];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [
    `store ${[...new Set(runs.map((r) => r.store))].join(', ')}; commits ${runs.map((r) => `${count(r.listings)}: ${r.commit}`).join(', ')}; `
      + `cells: req/s, p99 ms, share of the neighbouring ceilings, bytes an answer (headers included)`,
    '',
    line(['', ...runs.map((r) => count(r.listings))]),
    line(['---', ...runs.map(() => '---')]),
  ];
  for (const name of names) {
    lines.push(line([name.trim(), ...runs.map((r) => {
      const x = r.rows.find((row) => row.name === name);
      return x ? [count(Math.round(x.rps)), x.p99, shareOfNeighbours(x), x.bytes === undefined ? null : `${count(x.bytes)} B`]
        .filter((v) => v !== null).join(', ') : '';
    })]));
  }
  const span = (xs: number[]) => `${count(Math.min(...xs))}-${count(Math.max(...xs))}`;
  lines.push(line(['ceiling req/s (its runs)', ...runs.map((r) => `${span(r.ceilings.map((c) => c.rps))} (${r.ceilings.length})`)]));
  lines.push(line(['import: stored, done (µs a line end to end)', ...runs.map((r) => (r.import
    ? `${r.import.storedSeconds ?? '?'} s, ${r.import.seconds.toFixed(1)} s (${Math.round((r.import.seconds * 1e6) / r.listings)})` : ''))]));
  lines.push(line(['bulk load: matched (µs a listing)', ...runs.map((r) => {
    const m = r.import?.steps?.map((step) => /matched (\d+) listings in ([\d.]+) s/.exec(step)).find((x) => x);
    const early = r.import?.steps?.some((step) => step.startsWith('the bulk load ended early')) ? ', ended early' : '';
    return m ? `${m[2]} s (${Math.round((Number(m[2]) * 1e6) / Number(m[1]))})${early}` : '';
  })]));
  lines.push(line(['re-import a day later (a tenth of prices changed)', ...runs.map((r) => (r.reimport ? `${r.reimport.seconds.toFixed(1)} s` : ''))]));
  lines.push(line(['server peak RSS', ...runs.map((r) => `${count(r.serverPeakRssMb)} MB`)]));
  const growth = runs.slice(1).flatMap((r, i) => {
    const before = runs[i];
    if (r.listings === before.listings) return [];
    const kb = ((r.serverPeakRssMb - before.serverPeakRssMb) * 1024) / (r.listings - before.listings);
    return [`${count(before.listings)} to ${count(r.listings)}: ${kb.toFixed(2)} KB a listing`];
  });
  if (growth.length) lines.push('', `server RSS growth: ${growth.join('; ')}`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('report.ts') && process.argv[2]) {
  const results = process.argv.slice(2).map((f) => JSON.parse(readFileSync(f, 'utf8')) as BenchResult);
  console.log(results.length === 1 ? renderResult(results[0]) : renderGrowth(results));
}
