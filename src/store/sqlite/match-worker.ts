// Matches a bulk load's pending listings in a worker thread (BulkMatcher), between the profile
// worker that feeds it (its port) and the writer, which stores the groups it sends. It takes a
// batch from the profile worker only while it is fewer than AHEAD batches ahead of the writer.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { BulkMatcher } from '../../domain/matching/index.js';
import { heapNearLimit } from '../../runtime/heap.js';
import { AHEAD, type FromMatchWorker, type FromProfileWorker, type MatchWorkerSetup } from './pending-parallel.js';

const setup = workerData as MatchWorkerSetup;
const profiles: MessagePort = setup.port;
const writer = parentPort!;
const matcher = new BulkMatcher();
const queue: FromProfileWorker[] = [];
let sent = 0;
let taken = 0;
let ended = false;

const send = (m: FromMatchWorker) => writer.postMessage(m, m.type === 'batch'
  ? [m.batch.ids.buffer, m.batch.groups!.buffer, m.batch.textEnds.buffer, m.batch.keyEnds.buffer] as ArrayBuffer[] : []);

function pump(): void {
  while (!ended && queue.length && sent - taken < AHEAD) {
    const m = queue.shift()!;
    if (m.type !== 'batch') {
      ended = true;
      send(m);
      break;
    }
    if (heapNearLimit(setup.heapShare)) {
      // What it keeps grows with the store: the writer matches the rest against the store.
      ended = true;
      send({ type: 'full' });
      break;
    }
    try {
      const groups = matcher.match(m.batch);
      const { ids, texts, textEnds, keys, keyEnds } = m.batch;
      send({ type: 'batch', batch: { ids, groups, texts, textEnds, keys, keyEnds } });
      sent++;
      profiles.postMessage('taken');
    } catch (e) {
      ended = true;
      send({ type: 'error', message: (e as Error).message });
    }
  }
  if (ended) profiles.close();
}

profiles.on('message', (m: FromProfileWorker) => {
  queue.push(m);
  pump();
});
writer.on('message', () => {
  taken++;
  pump();
});
