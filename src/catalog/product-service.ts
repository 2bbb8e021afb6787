import Big from 'big.js';
import type { Currency } from '../domain/currencies.js';
import { freshnessOf, isAvailable, type Freshness } from '../domain/freshness.js';
import { cheapestOffer } from '../domain/group-price.js';
import type { Listing, Variant } from '../domain/listing.js';
import { GROUP_MEMBERS_LIMIT, type MerchantOffer } from '../store/types.js';
import { byPrice } from './compare-service.js';
import type { IdResolver, Resolved } from './id-resolver.js';
import type { ListingView, ListingViews, Money } from './listing-views.js';

export interface MerchantLink {
  /** A group member as its merchant offer; the product itself when it has no group. */
  listing: MerchantOffer | Listing;
  available: boolean;
}

/** One product by SKU with every platform that sells it (spec 2.4). */
export interface SkuDetail {
  product: ListingView;
  variants: Variant[];
  /** Every listing of its match group, cheapest first (the product alone when it has no group). */
  merchants: MerchantLink[];
  /** The group's cheapest offer that is no accessory nor price outlier (domain/group-price.ts). */
  cheapest: { price: Money; source: string };
  lowestRating: string | null;
  freshness: Freshness;
}

/** Product detail by any reference form, and the SKU detail of spec 2.4. */
export class ProductService {
  constructor(
    private readonly resolver: IdResolver,
    private readonly views: ListingViews,
    private readonly groupMerchants: (l: Listing) => Promise<MerchantOffer[]>,
    private readonly now: () => Date,
  ) {}

  /** The listing a reference names (integer id, UUID or SKU), with the form it matched as. */
  async resolve(ref: string): Promise<Resolved | null> {
    return this.resolver.resolve(ref);
  }

  /** Many references of any form at once (bulk lookup: ids, UUIDs, SKUs, GTINs, product URLs), in order; null where nothing answers. */
  async resolveMany(refs: readonly string[]): Promise<Array<Resolved | null>> {
    return this.resolver.resolveMany(refs);
  }

  /** `groupSize`: its group's size where it was read with the listing (Resolved), else it is read here. */
  async view(listing: Listing, currency?: Currency, groupSize?: number): Promise<ListingView> {
    return groupSize === undefined ? this.views.one(listing, { currency }) : this.views.sized(listing, groupSize, currency);
  }

  /** The SKU detail of a listing: its variants, its group's merchants, the cheapest offer in `currency` (SGD when none is asked). */
  async skuDetail(product: Listing, currency?: Currency): Promise<SkuDetail> {
    const links = (await this.groupMerchants(product)).sort(byPrice);
    // The whole group is at hand, so its size needs no second read of the same rows.
    const whole = links.length < GROUP_MEMBERS_LIMIT && links.some((l) => l.id === product.id);
    const view = whole ? this.views.sized(product, links.length, currency) : await this.views.one(product, { currency });
    const now = this.now();
    const merchants: Array<MerchantOffer | Listing> = links.length ? links : [product];
    const cheapest = cheapestOffer(merchants);
    const rated = merchants.filter((m) => m.rating !== null).map((m) => new Big(m.rating!));
    return {
      product: view,
      variants: product.variants,
      merchants: merchants.map((listing) => ({ listing, available: isAvailable(listing.inStock, listing.lastCheckedAt, now) })),
      cheapest: { price: this.views.convert(cheapest.price, cheapest.currency, currency ?? 'SGD'), source: cheapest.source },
      lowestRating: rated.length ? rated.reduce((a, b) => (b.lt(a) ? b : a)).toString() : null,
      freshness: freshnessOf(product.lastCheckedAt, now),
    };
  }
}
