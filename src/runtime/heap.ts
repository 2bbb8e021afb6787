import { getHeapStatistics } from 'node:v8';

/** Share of V8's heap limit past which a bulk load's matching stops holding the whole store in memory. */
export const BULK_HEAP_SHARE = 0.7;

/** Whether this thread's JS heap is past `share` of its limit: a bulk load's matching grows with the store. */
export function heapNearLimit(share = BULK_HEAP_SHARE): boolean {
  const h = getHeapStatistics();
  return h.used_heap_size > share * h.heap_size_limit;
}
