import { Readable } from 'node:stream';
import type { Container } from '../container.js';
import type { IngestSummary } from '../catalog/ingest.js';
import { generateDemoRecords } from '../demo/generate.js';
import { progressReporter } from './progress.js';

export const DEMO_LISTINGS = 20_000;

/** Generates the demo catalog and imports it through the ordinary ingest path. */
export async function loadDemo(c: Container, opts: { listings?: number; seed?: number; progress?: boolean } = {}): Promise<IngestSummary> {
  const now = c.clock.now();
  const records = generateDemoRecords({ listings: opts.listings ?? DEMO_LISTINGS, seed: opts.seed ?? 42, now });
  const lines = Readable.from((function* () { for (const r of records) yield JSON.stringify(r) + '\n'; })());
  const progress = opts.progress ? progressReporter('demo', null) : null;
  // A turn of the event loop between batches: a server loading it answers /health meanwhile.
  const summary = await c.ingest.ingestStream(lines, { batchSize: 1000, now: () => now, onProgress: (s) => progress?.update(s), yieldBetweenBatches: true });
  progress?.stop();
  return summary;
}
