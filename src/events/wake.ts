import type { CatalogStore } from '../store/types.js';

/**
 * The catalog store with a hook after every ingest batch that appended events: this instance
 * reads its event tail at once and tells the others (bus), instead of waiting for the next poll.
 */
export function withIngestHook(catalog: CatalogStore, afterEvents: () => void): CatalogStore {
  return new Proxy(catalog, {
    get(target, prop, receiver) {
      if (prop !== 'ingestBatch') {
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? v.bind(target) : v;
      }
      return async (...args: Parameters<CatalogStore['ingestBatch']>) => {
        const res = await target.ingestBatch(...args);
        if (res.events > 0) afterEvents();
        return res;
      };
    },
  });
}
