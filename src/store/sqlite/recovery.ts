import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { compiledWorkerAvailable } from '../../runtime/worker-module.js';
import type { RecoveryCapability, RecoveryProgress } from '../types.js';
import { finishBulkLoad, interruptedBulkLoad } from './bulk-load.js';
import { SqliteIngestWriter } from './ingest.js';

export type FromRecoveryWorker = RecoveryProgress | { phase: 'done' } | { phase: 'error'; message: string };

const WORKER = new URL('./recovery-worker.js', import.meta.url);

/**
 * Finishes what a killed bulk load left (its indexes, then the matching of what it stored), on
 * `db` and reporting as it goes. The caller has checked that the load's process is gone.
 */
export function recoverOn(db: Database, report: (p: RecoveryProgress) => void): void {
  report({ phase: 'indexes' });
  finishBulkLoad(db);
  const total = db.prepare('SELECT count(*) FROM listings WHERE match_profile IS NULL').pluck().get() as number;
  report({ phase: 'matching', done: 0, total });
  let last = 0;
  new SqliteIngestWriter(db).matchPending((done) => {
    if (done - last >= 5000) {
      last = done;
      report({ phase: 'matching', done, total });
    }
  });
}

/**
 * Recovery of an interrupted bulk load for a SQLite store. On a file, with the compiled build, it
 * runs in a worker thread on its own connection, so the server can listen and answer /health
 * meanwhile; otherwise here.
 */
export function sqliteRecovery(db: Database): RecoveryCapability {
  return {
    needed: () => interruptedBulkLoad(db),
    async run(report = () => undefined) {
      if (!interruptedBulkLoad(db)) return;
      if (db.memory || !compiledWorkerAvailable(WORKER)) return recoverOn(db, report);
      const worker = new Worker(WORKER, { workerData: { path: db.name } });
      await new Promise<void>((resolve, reject) => {
        worker.on('message', (m: FromRecoveryWorker) => {
          if (m.phase === 'done') resolve();
          else if (m.phase === 'error') reject(new Error(m.message));
          else report(m);
        });
        worker.on('error', reject);
        worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`recovery worker exited with code ${code}`))));
      });
    },
  };
}
