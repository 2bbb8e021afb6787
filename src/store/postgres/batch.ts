import DataLoader from 'dataloader';

/**
 * Point reads made in one turn of the event loop go to PostgreSQL as one query. Requests arrive
 * together (and wake together, after the key check they share), and on a small machine a round
 * trip costs more in socket writes and process wake-ups than the lookup itself: at a million
 * listings, one query per request was most of what a cold detail page cost. Nothing is cached:
 * every call is answered by a query sent after it was made. `read` answers keys in order,
 * duplicates included.
 */
export function batchReads<K, V>(read: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
  return new DataLoader(read, { cache: false, maxBatchSize: 500, batchScheduleFn: (send) => setImmediate(send) });
}
