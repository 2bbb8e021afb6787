import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { BULK_HEAP_SHARE } from '../../runtime/heap.js';
import { compiledWorkerAvailable, type WorkerModule } from '../../runtime/worker-module.js';
import type { MatchedBatch, PendingBatch } from './pending-profiles.js';

export interface ProfileWorkerSetup {
  path: string;
  /** Start after this listing id. */
  after: number;
  /** Where batches go: the match worker. */
  port: MessagePort;
}
export interface MatchWorkerSetup {
  /** Where batches come from: the profile worker. */
  port: MessagePort;
  /** The share of its heap limit past which it stops (tests set 0). */
  heapShare: number;
}
type Ending = { type: 'done' } | { type: 'error'; message: string };
export type FromProfileWorker = { type: 'batch'; batch: PendingBatch } | Ending;
/** `full`: the match worker's heap neared its limit, and it stopped before the batch it would have matched next. */
export type FromMatchWorker = { type: 'batch'; batch: MatchedBatch } | { type: 'full' } | Ending;

/** Batches a worker may have sent that the next one has not taken yet. */
export const AHEAD = 3;
const PROFILE_WORKER = new URL('./pending-worker.js', import.meta.url);
const MATCH_WORKER = new URL('./match-worker.js', import.meta.url);

/** The two workers' modules (tests run the TypeScript sources through a loader), and the match worker's heap share (BULK_HEAP_SHARE). */
export interface MatchWorkers {
  profile: WorkerModule;
  match: WorkerModule;
  heapShare?: number;
}

/** Whether the compiled workers are there (not when the sources run directly, as in tests). */
export function matchWorkersAvailable(): boolean {
  return compiledWorkerAvailable(PROFILE_WORKER) && compiledWorkerAvailable(MATCH_WORKER);
}

/**
 * The pending listings of the database file at `path`, in id order, matched: one worker thread
 * builds their profiles, a second matches them (BulkMatcher), while the caller stores the batch
 * before. The caller acknowledges each batch by asking for the next; each worker stays at most
 * AHEAD batches ahead of the next. When the match worker's heap nears its limit the batches end
 * early, after `onFull`.
 */
export async function* matchedInWorkers(
  path: string, after: number, opts: { workers?: MatchWorkers; onFull?: () => void } = {},
): AsyncGenerator<MatchedBatch> {
  const runners = opts.workers ?? { profile: { url: PROFILE_WORKER }, match: { url: MATCH_WORKER } };
  const { port1, port2 } = new MessageChannel();
  const setup: MatchWorkerSetup = { port: port2, heapShare: runners.heapShare ?? BULK_HEAP_SHARE };
  const matcher = new Worker(runners.match.url, { workerData: setup, transferList: [port2], argv: runners.match.argv });
  const profiler = new Worker(runners.profile.url, {
    workerData: { path, after, port: port1 } satisfies ProfileWorkerSetup, transferList: [port1], argv: runners.profile.argv,
  });
  const queue: FromMatchWorker[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  matcher.on('message', (m: FromMatchWorker) => {
    queue.push(m);
    notify();
  });
  for (const [worker, name] of [[matcher, 'match'], [profiler, 'profile']] as const) {
    worker.on('error', (e) => {
      failure ??= e;
      notify();
    });
    worker.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`${name} worker exited with code ${code}`);
      notify();
    });
  }
  try {
    for (;;) {
      if (failure) throw failure;
      const m = queue.shift();
      if (!m) {
        await new Promise<void>((resolve) => { wake = resolve; });
        continue;
      }
      if (m.type === 'error') throw new Error(m.message);
      if (m.type === 'full') opts.onFull?.();
      if (m.type !== 'batch') return;
      yield m.batch;
      matcher.postMessage('taken');
    }
  } finally {
    await Promise.all([profiler.terminate(), matcher.terminate()]);
  }
}
