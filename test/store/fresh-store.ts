import { afterEach, beforeEach } from 'vitest';
import type { Store } from '../../src/store/types.js';

/** A migrated, empty store for each test of a contract, closed after it: `store()` is the current one. */
export function freshStore(makeStore: () => Promise<Store>): () => Store {
  let store: Store;
  beforeEach(async () => {
    store = await makeStore();
    await store.migrate();
  });
  afterEach(async () => {
    await store.close();
  });
  return () => store;
}
