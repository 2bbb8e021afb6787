import { Worker } from 'node:worker_threads';
import { compiledWorkerAvailable, type WorkerModule } from '../../runtime/worker-module.js';
import type { PendingBatch } from './pending-profiles.js';

export interface PendingWorkerSetup {
  path: string;
  /** Start after this listing id. */
  after: number;
}
export type FromPendingWorker = { type: 'batch'; batch: PendingBatch } | { type: 'done' } | { type: 'error'; message: string };

/** Batches the worker may have sent that the matcher has not taken yet. */
export const AHEAD = 3;
const WORKER = new URL('./pending-worker.js', import.meta.url);

/** Whether the compiled worker is there (not when the sources run directly, as in tests). */
export function pendingWorkerAvailable(): boolean {
  return compiledWorkerAvailable(WORKER);
}

/**
 * The pending listings of the database file at `path`, in id order, their profiles built in a
 * worker thread while the caller matches the batch before. The caller acknowledges each batch by
 * asking for the next; the worker stays at most AHEAD batches ahead.
 */
export async function* pendingInWorker(
  path: string, after: number, runner: WorkerModule = { url: WORKER },
): AsyncGenerator<PendingBatch> {
  const worker = new Worker(runner.url, { workerData: { path, after } satisfies PendingWorkerSetup, argv: runner.argv });
  const queue: FromPendingWorker[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (m: FromPendingWorker) => {
    queue.push(m);
    notify();
  });
  worker.on('error', (e) => {
    failure ??= e;
    notify();
  });
  worker.on('exit', (code) => {
    if (code !== 0) failure ??= new Error(`profile worker exited with code ${code}`);
    notify();
  });
  try {
    for (;;) {
      if (failure) throw failure;
      const m = queue.shift();
      if (!m) {
        await new Promise<void>((resolve) => { wake = resolve; });
        continue;
      }
      if (m.type === 'error') throw new Error(m.message);
      if (m.type === 'done') return;
      yield m.batch;
      worker.postMessage('taken');
    }
  } finally {
    await worker.terminate();
  }
}
