import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { compiledWorkerAvailable, type WorkerModule } from '../../runtime/worker-module.js';

export interface CheckpointWorkerSetup {
  path: string;
  everyMs: number;
}

const WORKER = new URL('./checkpoint-worker.js', import.meta.url);
/** How often the worker copies what is committed into the database file. */
const EVERY_MS = 250;
/**
 * Past this much WAL the writer checkpoints itself after all: the worker can fall behind only
 * while a reader holds a snapshot older than what it would copy.
 */
const SAFETY_NET_BYTES = 1 << 30;

/**
 * A bulk load's WAL checkpoints, run from their own connection in a worker thread while the loader
 * writes. Done by the writer, each checkpoint stops the load while it copies about 100 MB into
 * the database file; beside it, PASSIVE checkpoints copy what is committed without waiting for
 * anything, and the WAL starts over whenever they have caught up. Durability is the WAL's either
 * way.
 */
export class WalCheckpointer {
  private stopped = false;
  private readonly exited: Promise<void>;

  private constructor(private readonly db: Database, private readonly worker: Worker, private readonly restore: number) {
    // A worker that fails leaves the checkpoints to the writer again.
    worker.on('error', () => this.stop());
    worker.on('exit', () => this.stop());
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.unref();
  }

  /** Starts one for a file database (null for one in memory, or without the compiled worker and no runner). */
  static start(db: Database, runner?: WorkerModule): WalCheckpointer | null {
    if (db.memory || !(runner || compiledWorkerAvailable(WORKER))) return null;
    const restore = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma(`wal_autocheckpoint = ${Math.round(SAFETY_NET_BYTES / pageSize)}`);
    const workerData: CheckpointWorkerSetup = { path: db.name, everyMs: EVERY_MS };
    return new WalCheckpointer(db, new Worker(runner?.url ?? WORKER, { workerData, argv: runner?.argv }), restore);
  }

  /**
   * The writer checkpoints as it did before start(); the worker closes its connection and ends,
   * which the promise waits for. The writer's connection is then the last one, so closing it
   * copies the rest of the WAL into the database file and removes the WAL: a file copied after
   * the import holds all of it.
   */
  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.restore}`);
      this.worker.postMessage('stop');
    }
    return this.exited;
  }
}
