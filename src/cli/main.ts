import { readFileSync, statSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
import type { IngestSummary } from '../catalog/ingest.js';
import { createContainer } from '../container.js';
import { TIERS, type Tier } from '../domain/tier.js';
import { keepTickShape } from '../runtime/tick-shape.js';
import type { BulkFinish, BulkLoadCapability } from '../store/types.js';
import { loadDemo } from './demo.js';
import { countReporter, progressReporter } from './progress.js';

const program = new Command('catalog').description('Product catalog and price-comparison service').showHelpAfterError();

/** The container of a one-shot command; a store a killed import left half-written is finished first, with progress. */
const openContainer = () => createContainer(loadConfig(), {
  onRecovery: (p) => console.error(p.phase === 'indexes'
    ? 'the last bulk load was interrupted: building its indexes...'
    : `the last bulk load was interrupted: matched ${p.done} of ${p.total} listings`),
});

const tierArg = (v: string): Tier => {
  if (!TIERS.includes(v as Tier)) throw new InvalidArgumentError(`one of ${TIERS.join(', ')}`);
  return v as Tier;
};

// serve and mcp are loaded when run: the HTTP stack and the MCP SDK are a second of start-up the other commands skip.
program.command('serve').description('serve the API (PORT, HOST, DATABASE_URL, ...)').action(async () => {
  // Before the HTTP stack loads (see keepTickShape): a server's every request pays if it comes later.
  keepTickShape();
  const { serve } = await import('./serve.js');
  await serve(loadConfig());
});

program.command('mcp').description('MCP server on stdin/stdout for a desktop agent, over the configured store (DATABASE_URL, ...); no key needed; logs on stderr')
  .action(async () => {
    // Standard output carries the protocol alone: a stray console.log anywhere would corrupt it.
    console.log = console.info = console.debug = console.error;
    keepTickShape();
    const { serveStdio } = await import('../mcp/stdio.js');
    const c = await openContainer();
    if ((await c.store.catalog.count()) === 0) console.error('catalog mcp: the store is empty; load it with `catalog demo` or `catalog import` (or start `catalog serve` once)');
    await c.tail.start();
    void c.searchIndex?.build().catch((e: Error) => console.error(`catalog mcp: search index build failed (${e.message}); the store serves search`));
    const stop = async () => {
      await c.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
    await serveStdio(c, { version: c.config.version, onError: (err, tool) => console.error(`catalog mcp: ${tool} failed: ${(err as Error).message}`) });
    await stop();
  });

program.command('import').argument('<file>', 'NDJSON file, or - for standard input')
  .option('--batch <n>', 'records per transaction', (v) => Number(v), 1000)
  .description('import listings; exits non-zero when any line was rejected')
  .action(async (file: string, opts: { batch: number }) => {
    const c = await openContainer();
    const loader = c.store.bulkLoad;
    loader?.startImport();
    // Into an empty store that can: a bulk load, stored first and matched after, its indexes built once.
    const bulk = loader?.start() ?? false;
    // A file is read as the parse workers need it (see parseInWorker).
    const input = file === '-' ? process.stdin : { path: file };
    const size = file === '-' ? null : statSync(file).size;
    const bar = process.stderr.isTTY ? progressReporter('import', size) : null;
    const started = Date.now();
    let s;
    try {
      s = await c.ingest.ingestStream(input, {
        batchSize: opts.batch, parallel: true, profiles: !bulk, onProgress: (sum, bytes) => bar?.update(sum, bytes),
      });
    } catch (e) {
      // What was stored is kept: the load ends here (its listings matched, its indexes built).
      if (bulk) await loader?.finish();
      throw e;
    } finally {
      bar?.stop();
    }
    let storedSecs = (Date.now() - started) / 1000;
    const finish = bulk && loader ? await finishBulk(loader, s, storedSecs) : null;
    // Served as usual from the end of the first step: stored, searchable, indexed for reads; matched after.
    if (finish) storedSecs += finish.readIndexMs / 1000;
    for (const r of s.rejections) console.error(`line ${r.line}: ${r.field}: ${r.reason}`);
    if (s.rejected > s.rejections.length) console.error(`... and ${s.rejected - s.rejections.length} more rejected lines`);
    const secs = (Date.now() - started) / 1000;
    const rate = (n: number, t: number) => Math.round(n / Math.max(t, 0.001));
    const stored = finish ? `stored in ${storedSecs.toFixed(1)} s (${rate(s.lines, storedSecs)} lines/s), ` : '';
    console.log(`inserted ${s.inserted}, updated ${s.updated}, unchanged ${s.unchanged}, rejected ${s.rejected} `
      + `(${s.lines} lines ${stored}done in ${secs.toFixed(1)} s, ${rate(s.lines, secs)} lines/s)`);
    await c.close();
    process.exitCode = s.rejected > 0 ? 1 : 0;
  });

/** The second step of a bulk load (see docs/ingest.md, Bulk load): read indexes, then the matching, reported. */
async function finishBulk(loader: BulkLoadCapability, s: IngestSummary, readSecs: number): Promise<BulkFinish> {
  console.error(`bulk load into an empty store: ${s.lines} lines read in ${readSecs.toFixed(1)} s; building read indexes, then matching...`);
  const matching = process.stderr.isTTY ? countReporter('matching', s.inserted) : null;
  let finish: BulkFinish;
  try {
    finish = await loader.finish({ onGrouped: (n) => matching?.update(n) });
  } finally {
    matching?.stop();
  }
  const secs = (ms: number) => (ms / 1000).toFixed(1);
  console.error(`read indexes built in ${secs(finish.readIndexMs)} s; matched ${finish.grouped} listings in ${secs(finish.groupMs)} s; `
    + `match indexes built in ${secs(finish.indexMs)} s`);
  const early = finish.endedEarly;
  if (early) {
    console.error(`the bulk load ended early (${early.because === 'heap limit' ? 'its memory neared the heap limit' : 'another writer wrote'}): `
      + `${early.fromMemory} listings were matched from memory, the rest against the store`);
  }
  return finish;
}

const keys = program.command('keys').description('API keys');
keys.command('create').requiredOption('--tier <tier>', `one of ${TIERS.join(', ')}`, tierArg).option('--name <name>', 'a label for the key')
  .description('create a key; prints it alone on the last line')
  .action(async (opts: { tier: Tier; name?: string }) => {
    const c = await openContainer();
    const { apiKey, record } = await c.keys.create({ tier: opts.tier, name: opts.name ?? null, verified: opts.tier !== 'unverified' });
    console.log(`created key #${record.id} (${record.prefix}…) tier ${record.tier}${record.name ? ` name ${record.name}` : ''}`);
    console.log(apiKey);
    await c.close();
  });

keys.command('set-tier').argument('<key>', 'key id or key prefix (ck_xxxxxx)').requiredOption('--tier <tier>', `one of ${TIERS.join(', ')}`, tierArg)
  .description('change a key\'s tier: an upgrade applies now, a downgrade at the end of the billing cycle')
  .action(async (ref: string, opts: { tier: Tier }) => {
    const c = await openContainer();
    const r = await c.keyAdmin.setTier(ref, opts.tier);
    if (!r.ok) {
      console.error(`keys set-tier: ${r.reason === 'ambiguous' ? 'several active keys have this prefix; use the key id' : 'no active key with this id or prefix'}`);
      process.exitCode = 1;
    } else {
      console.log(r.effective === 'now' ? `key #${r.key.id} (${r.key.prefix}…) is now ${r.key.tier}`
        : `key #${r.key.id} (${r.key.prefix}…) stays ${r.key.tier} until ${r.at}, then ${r.key.pendingTier}`);
    }
    await c.close();
  });
keys.command('rotate').argument('<key>', 'key id or key prefix (ck_xxxxxx)')
  .description('revoke a key and issue its replacement (same tier and account); prints the new key alone on the last line')
  .action(async (ref: string) => {
    const c = await openContainer();
    const found = await c.keyAdmin.resolve(ref);
    const r = found.ok ? await c.keyAdmin.rotate(found.key) : null;
    if (!r?.ok) {
      console.error('keys rotate: no active key with this id or prefix (or the prefix is ambiguous)');
      process.exitCode = 1;
    } else {
      console.log(`key #${found.ok ? found.key.id : ''} revoked; new key #${r.record.id} (${r.record.prefix}…) tier ${r.record.tier}`);
      console.log(r.apiKey);
    }
    await c.close();
  });

program.command('demo').description('load the generated demo catalog into the store')
  .option('--listings <n>', 'how many listings', (v) => Number(v), 20000).option('--seed <n>', 'generator seed', (v) => Number(v), 42)
  .action(async (opts: { listings: number; seed: number }) => {
    const c = await openContainer();
    const s = await loadDemo(c, { listings: opts.listings, seed: opts.seed, progress: process.stderr.isTTY });
    console.log(`demo: inserted ${s.inserted}, updated ${s.updated}, unchanged ${s.unchanged}, rejected ${s.rejected}`);
    await c.close();
  });

const fx = program.command('fx').description('currency rates');
fx.command('import').argument('<csv>', 'rate table: "# date:" and "# source:" lines, then currency,per_eur rows for all 13 currencies')
  .action(async (file: string) => {
    const c = await openContainer();
    try {
      const t = await c.fx.replace(readFileSync(file, 'utf8'));
      console.log(`rates of ${t.date} (${t.source}) now in force; listings are re-normalized as they are next ingested`);
    } catch (e) {
      console.error(`fx import: ${(e as Error).message}`);
      process.exitCode = 1;
    }
    await c.close();
  });

program.command('migrate').description('apply pending schema migrations').action(async () => {
  const c = await openContainer();
  console.log(`migrations applied (${c.store.kind})`);
  await c.close();
});

program.parseAsync().catch((e: Error) => {
  console.error(`catalog: ${e.message}`);
  process.exit(1);
});
