import { randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { clickKey, jobIdOf, openClick, signClick } from '../domain/click-token.js';
import type { Listing } from '../domain/listing.js';
import type { ActivityStore, CatalogStore } from '../store/types.js';
import type { ActivityService } from './activity-service.js';

/** Where a followed link goes: the affiliate URL when it is a web address, else the merchant URL (both as stored). */
export function offerUrl(l: Pick<Listing, 'affiliateUrl' | 'url'>): string {
  return l.affiliateUrl && isWebUrl(l.affiliateUrl) ? l.affiliateUrl : l.url;
}

function isWebUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Tracked outbound links (spec 2.3 `click_url`, 4.3 `shopping_job_id`): signs a token per result
 * for the key that searched, and turns a followed token into the listing's offer URL while
 * recording the click. The redirect target is always read from the store by the listing the token
 * names, never taken from the request.
 */
export class ClickService {
  private key: Promise<KeyObject> | null = null;

  /**
   * `secret`: CLICK_SECRET when configured; otherwise one generated on first use and kept in the
   * store, so links survive restarts and every instance on one store signs alike.
   */
  constructor(
    private readonly catalog: CatalogStore,
    private readonly secrets: ActivityStore,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
    private readonly secret: string | null,
  ) {}

  /** The valid job id of a request, or null: anything else is ignored, as spec 4.3 says. */
  jobIdOf(raw: string | undefined): string | null {
    return jobIdOf(raw);
  }

  /** A signer of tokens for one key's search, with one job id (or none). */
  async signer(keyId: number, jobId: string | null): Promise<(listingId: number) => string> {
    const key = await this.signingKey();
    return (listingId) => signClick(key, { listingId, keyId, jobId });
  }

  /**
   * Follows a link: the offer URL of the listing the token names, the click recorded (unless
   * `record` is false: a HEAD probe); null when the token is malformed, forged, for another job
   * id, or names a listing the catalog no longer has.
   */
  async follow(token: string, rawJobId: string | undefined, record = true): Promise<string | null> {
    // A job id the token could not have been made with opens nothing: it is no valid job id.
    const jobId = rawJobId === undefined ? null : jobIdOf(rawJobId);
    if (rawJobId !== undefined && jobId === null) return null;
    const claim = openClick(await this.signingKey(), token, jobId);
    if (!claim) return null;
    const listing = await this.catalog.getById(claim.listingId);
    if (!listing) return null;
    if (record) this.activity.recordClick({ listingId: listing.id, keyId: claim.keyId, jobId: claim.jobId, at: this.now().toISOString() });
    return offerUrl(listing);
  }

  private signingKey(): Promise<KeyObject> {
    if (!this.key) {
      this.key = (this.secret !== null ? Promise.resolve(this.secret) : this.secrets.clickSecret(randomBytes(32).toString('base64url'))).then(clickKey);
      // A store that failed once is asked again next time.
      this.key.catch(() => { this.key = null; });
    }
    return this.key;
  }
}
