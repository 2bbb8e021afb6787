// Builds the profiles of a bulk load's pending listings in a worker thread, ahead of the thread
// that matches them: reads them in id order from its own read-only connection and sends them in
// batches, never more than AHEAD unacknowledged. See `pendingInWorker` in pending-parallel.ts.
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { batchBuffers, KeyNumbers, PENDING_SQL, readPending } from './pending-profiles.js';
import { AHEAD, type FromPendingWorker, type PendingWorkerSetup } from './pending-parallel.js';

const setup = workerData as PendingWorkerSetup;
const port = parentPort!;
let taken = 0;
let wake: (() => void) | null = null;
port.on('message', () => {
  taken++;
  wake?.();
});
const send = (m: FromPendingWorker) => port.postMessage(m, m.type === 'batch' ? batchBuffers(m.batch) : []);

try {
  const db = new BetterSqlite3(setup.path, { readonly: true });
  db.pragma('busy_timeout = 5000');
  const pending = db.prepare(PENDING_SQL);
  const numbering = new KeyNumbers();
  let after = setup.after;
  let sent = 0;
  for (;;) {
    const batch = readPending(pending, after, numbering);
    if (!batch.ids.length) break;
    after = batch.ids[batch.ids.length - 1];
    send({ type: 'batch', batch });
    sent++;
    while (sent - taken >= AHEAD) await new Promise<void>((resolve) => { wake = resolve; });
  }
  db.close();
  send({ type: 'done' });
} catch (e) {
  send({ type: 'error', message: (e as Error).message });
}
