import { isIntegerId, isUuid } from '../domain/listing-id.js';
import type { Listing } from '../domain/listing.js';
import type { CatalogStore } from '../store/types.js';

export type RefForm = 'id' | 'uuid' | 'sku';

export interface Resolved {
  /** Which form the reference matched as. */
  form: RefForm;
  listing: Listing;
}

/**
 * The one reading of a product reference every surface uses: an integer is a listing id (and,
 * when no listing has that id, a SKU made of digits), a UUID a listing's UUID, anything else a SKU
 * (several platforms may share one: the most recently updated answers).
 */
export class IdResolver {
  constructor(private readonly store: CatalogStore) {}

  async resolve(ref: string): Promise<Resolved | null> {
    if (isIntegerId(ref)) {
      const l = await this.store.getById(Number(ref));
      if (l) return { form: 'id', listing: l };
    } else if (isUuid(ref)) {
      const l = await this.store.getByUuid(ref.toLowerCase());
      return l ? { form: 'uuid', listing: l } : null;
    }
    const bySku = await this.store.getBySku(ref);
    return bySku.length ? { form: 'sku', listing: bySku[0] } : null;
  }
}
