import DataLoader from 'dataloader';

/**
 * Point reads made in one turn of the event loop go to PostgreSQL as one query. Requests arrive
 * together (and wake together, after the key check they share), and on a small machine a round
 * trip costs more in socket writes and process wake-ups than the lookup itself. Nothing is
 * cached: every call is answered by a query sent after it was made. `read` answers keys in order,
 * duplicates included.
 */
export function batchReads<K, V>(read: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
  return new DataLoader(read, { cache: false, maxBatchSize: 500, batchScheduleFn: (send) => setImmediate(send) });
}

/** The rows of each key, in the order read and at most `max` each: the answers to `keys`, in order. */
export function rowsPerKey<K, R>(keys: readonly K[], found: readonly R[], keyOf: (row: R) => K, max = Infinity): R[][] {
  const byKey = new Map<K, R[]>();
  for (const row of found) {
    let list = byKey.get(keyOf(row));
    if (!list) byKey.set(keyOf(row), (list = []));
    if (list.length < max) list.push(row);
  }
  return keys.map((k) => byKey.get(k) ?? []);
}
