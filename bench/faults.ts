/**
 * `npm run faults -- [--seed N] [--listings N] [--rounds N] [--changes N] [--new N] [--import-kill P] [--server-kill P] [--batch N] [--hook-min-pct P] [--keep]`
 * Fault drills (issue 25, item 4): `kill -9` of the server and of `catalog import` at seeded
 * random points (the plan is printed; the same seed draws the same plan), restarts, then a
 * checker compares the store with what was sent (bench/fault-check.ts says what "lost" and
 * "duplicated" mean for each kind). Exit 1 when any check fails.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runDrill } from './fault-drill.js';

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    listings: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '10' },
    changes: { type: 'string', default: '4000' },
    new: { type: 'string', default: '200' },
    'import-kill': { type: 'string', default: '0.7' },
    'server-kill': { type: 'string', default: '0.6' },
    streams: { type: 'string', default: '3' },
    subscriptions: { type: 'string', default: '2' },
    batch: { type: 'string', default: '1000' },
    'hook-min-pct': { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
  },
});
const dir = join(import.meta.dirname, '..', 'bench', 'out', `faults-${process.pid}`);
mkdirSync(dir, { recursive: true });
const started = Date.now();
try {
  const r = await runDrill({
    seed: Number(args.seed), dir, listings: Number(args.listings), rounds: Number(args.rounds), changesPerRound: Number(args.changes),
    newPerRound: Number(args.new), importKillChance: Number(args['import-kill']), serverKillChance: Number(args['server-kill']),
    streams: Number(args.streams), subscriptions: Number(args.subscriptions), batch: Number(args.batch), hookMinPct: Number(args['hook-min-pct']), log: (l) => console.log(l),
  });
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (!r.ok) process.exitCode = 1;
} finally {
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
