/**
 * Writes the deterministic demo catalog as NDJSON ingest records.
 *
 *   npx tsx bench/generate.ts --listings N [--seed S] [--history-days D] [--now ISO] [--out file.ndjson]
 *
 * Without --out the records go to stdout; the summary (records, seconds, records/s) to stderr.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { DEFAULT_LISTINGS, generateDemoRecords } from '../src/demo/generate.js';

const { values } = parseArgs({
  options: {
    listings: { type: 'string', default: String(DEFAULT_LISTINGS) },
    seed: { type: 'string' },
    'history-days': { type: 'string' },
    now: { type: 'string' },
    out: { type: 'string' },
    'ground-truth': { type: 'boolean', default: false },
  },
});

function int(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a non-negative integer, got ${text}`);
  return Number(text);
}

async function main(): Promise<void> {
  const now = values.now ? new Date(values.now) : undefined;
  if (now && Number.isNaN(now.getTime())) throw new Error(`--now must be an ISO date, got ${values.now}`);
  const records = generateDemoRecords({
    listings: int('listings', values.listings) ?? DEFAULT_LISTINGS,
    seed: int('seed', values.seed),
    historyDays: int('history-days', values['history-days']),
    now,
    groundTruth: values['ground-truth'],
  });
  const out: Writable = values.out ? createWriteStream(values.out) : process.stdout;
  const started = performance.now();
  let count = 0;
  // Lines are batched into ~1 MB chunks; write() returning false means wait for 'drain'.
  let chunk = '';
  for (const record of records) {
    chunk += JSON.stringify(record) + '\n';
    count++;
    if (chunk.length >= 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  if (chunk) out.write(chunk);
  if (values.out) {
    out.end();
    await once(out, 'finish');
  }
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`${count} records in ${seconds.toFixed(2)} s (${Math.round(count / seconds)} records/s)\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
