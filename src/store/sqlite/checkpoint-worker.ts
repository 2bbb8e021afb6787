// Checkpoints a bulk load's WAL from its own connection, in a worker thread, while the loader
// writes: see `WalCheckpointer` in checkpointer.ts.
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { CheckpointWorkerSetup } from './checkpointer.js';

const setup = workerData as CheckpointWorkerSetup;
const db = new BetterSqlite3(setup.path);
// PASSIVE never waits: it copies what is committed and leaves the rest for its next turn.
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another checkpoint runs): the next turn tries again.
  }
}, setup.everyMs);
parentPort!.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
