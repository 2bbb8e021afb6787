import { gtinStoredForms, normalizeGtin } from '../domain/gtin.js';
import { isIntegerId, isUuid } from '../domain/listing-id.js';
import type { Listing } from '../domain/listing.js';
import { isProductUrl, productUrlCandidates, productUrlKey } from '../domain/product-url.js';
import type { CatalogStore, LookupKey } from '../store/types.js';

export type RefForm = 'id' | 'uuid' | 'sku' | 'gtin' | 'url';

export interface Resolved {
  /** Which form the reference matched as. */
  form: RefForm;
  listing: Listing;
  /** The size of its match group, where it was read with the listing (an id, by `resolve`). */
  groupSize?: number;
}

/** Of two listings answering one reference, the one that answers: the most recently updated (then the higher id), as for a SKU. */
const newer = (a: Listing, b: Listing) => (a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id) ? a : b);

/** The forms a reference is tried as, in order, each with what it is looked up by. */
type Try = { form: 'id'; id: number } | { form: 'uuid' | 'sku'; value: string } | { form: 'gtin'; gtin: string } | { form: 'url'; url: string };

function triesOf(ref: string): Try[] {
  const t = ref.trim();
  if (isUuid(t)) return [{ form: 'uuid', value: t.toLowerCase() }];
  if (/^https?:\/\//i.test(t)) return isProductUrl(t) ? [{ form: 'url', url: t }] : [];
  const tries: Try[] = [];
  if (isIntegerId(t)) tries.push({ form: 'id', id: Number(t) });
  if (t) tries.push({ form: 'sku', value: t });
  const gtin = normalizeGtin(t);
  if (gtin) tries.push({ form: 'gtin', gtin });
  if (isProductUrl(t)) tries.push({ form: 'url', url: t });
  return tries;
}

/**
 * The one reading of a product reference every surface uses: an integer is a listing id (and,
 * when no listing has that id, a SKU made of digits), a UUID a listing's UUID, anything else a SKU
 * (several platforms may share one: the most recently updated answers).
 *
 * A bulk lookup (`resolveMany`) also reads GTINs and product URLs: what no id, UUID or SKU
 * answers is tried as a GTIN (EAN-8, UPC-A, EAN-13 or GTIN-14 with a valid check digit, in any of
 * the forms a feed stores it) and then as a URL; a reference starting with http:// or https:// is
 * a URL only. Where several listings answer, the most recently updated does.
 */
export class IdResolver {
  constructor(private readonly store: CatalogStore) {}

  async resolve(ref: string): Promise<Resolved | null> {
    if (isIntegerId(ref)) {
      const found = await this.store.getSized(Number(ref));
      if (found) return { form: 'id', listing: found.listing, groupSize: found.groupSize };
    } else if (isUuid(ref)) {
      const l = await this.store.getByUuid(ref.toLowerCase());
      return l ? { form: 'uuid', listing: l } : null;
    }
    const bySku = await this.store.getBySku(ref);
    return bySku.length ? { form: 'sku', listing: bySku[0] } : null;
  }

  /**
   * Every reference, each in any form, in the order given (null: nothing answers it). Every form
   * of every reference is read at once, one batched read per form, and each reference then takes
   * its first form that found a listing: a hundred references cost five reads, not a hundred.
   */
  async resolveMany(refs: readonly string[]): Promise<Array<Resolved | null>> {
    const plans = refs.map(triesOf);
    const ids: number[] = [];
    const values: Record<LookupKey, Set<string>> = { uuid: new Set(), sku: new Set(), gtin: new Set(), url: new Set() };
    for (const plan of plans) {
      for (const t of plan) {
        if (t.form === 'id') ids.push(t.id);
        else if (t.form === 'gtin') gtinStoredForms(t.gtin).forEach((g) => values.gtin.add(g));
        else if (t.form === 'url') productUrlCandidates(t.url).forEach((u) => values.url.add(u));
        else values[t.form].add(t.value);
      }
    }
    const read = (key: LookupKey) => (values[key].size ? this.store.latestBy(key, [...values[key]]) : Promise.resolve(new Map<string, Listing>()));
    const [byId, byUuid, bySku, byGtin, byUrl] = await Promise.all([
      ids.length ? this.store.getMany([...new Set(ids)]).then((ls) => new Map(ls.map((l) => [l.id, l]))) : new Map<number, Listing>(),
      read('uuid'), read('sku'), read('gtin'), read('url'),
    ]);
    const found = (t: Try): Listing | undefined => {
      switch (t.form) {
        case 'id': return byId.get(t.id);
        case 'uuid': return byUuid.get(t.value);
        case 'sku': return bySku.get(t.value);
        case 'gtin': return gtinStoredForms(t.gtin).map((g) => byGtin.get(g)).filter((l) => l !== undefined).reduce<Listing | undefined>((a, b) => (a ? newer(a, b) : b), undefined);
        case 'url': {
          // A candidate text is only a way into the index: the listing answers when its URL is the same page.
          const key = productUrlKey(t.url);
          return productUrlCandidates(t.url).map((u) => byUrl.get(u))
            .filter((l): l is Listing => l !== undefined && productUrlKey(l.url) === key)
            .reduce<Listing | undefined>((a, b) => (a ? newer(a, b) : b), undefined);
        }
      }
    };
    return plans.map((plan) => {
      for (const t of plan) {
        const listing = found(t);
        if (listing) return { form: t.form, listing };
      }
      return null;
    });
  }
}
