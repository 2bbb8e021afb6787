import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from './index.js';
import { recoverOn, type FromRecoveryWorker } from './recovery.js';

// A worker thread of sqliteRecovery: the recovery on a connection of its own.
const post = (m: FromRecoveryWorker) => parentPort!.postMessage(m);
const db = openSqlite((workerData as { path: string }).path);
try {
  recoverOn(db, post);
  post({ phase: 'done' });
} catch (e) {
  post({ phase: 'error', message: (e as Error).message });
} finally {
  db.close();
}
