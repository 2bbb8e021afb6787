// Builds the profiles of a bulk load's pending listings in a worker thread, ahead of the matching:
// reads them in id order from its own read-only connection and sends them in batches to the match
// worker (its port), never more than AHEAD it has not taken. See pending-parallel.ts.
import { workerData, type MessagePort } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { KeyNumbers } from '../../domain/matching/index.js';
import { batchBuffers, PENDING_SQL, readPending } from './pending-profiles.js';
import { AHEAD, type FromProfileWorker, type ProfileWorkerSetup } from './pending-parallel.js';

const setup = workerData as ProfileWorkerSetup;
const port: MessagePort = setup.port;
let taken = 0;
let wake: (() => void) | null = null;
port.on('message', () => {
  taken++;
  wake?.();
});
const send = (m: FromProfileWorker) => port.postMessage(m, m.type === 'batch' ? batchBuffers(m.batch) : []);

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
