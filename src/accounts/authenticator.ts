import type { Tier } from '../domain/tier.js';
import type { ApiKeyRecord } from '../store/types.js';
import type { KeyService } from './keys.js';

export interface Principal {
  keyId: number;
  /** Rate-limit counters and OAuth clients belong to the account, which survives key rotation. */
  accountId?: number;
  tier: Tier;
  via: 'api_key' | 'oauth';
  /** The OAuth client when authenticated with an access token. */
  clientId?: string;
  /** The access token's space-separated scopes. */
  scope?: string;
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: string };

/** Another kind of credential (OAuth access tokens) plugs in here. */
export interface CredentialVerifier {
  accepts(credential: string): boolean;
  verify(credential: string): Promise<AuthResult>;
  /** verify's principal when it is at hand with nothing awaited; null when verify must decide. */
  cached?(credential: string): Principal | null;
}

export class Authenticator {
  private readonly verifiers: CredentialVerifier[] = [];

  constructor(private readonly keys: KeyService) {}

  use(verifier: CredentialVerifier): void {
    this.verifiers.push(verifier);
  }

  async authenticate(credential: string): Promise<AuthResult> {
    for (const v of this.verifiers) if (v.accepts(credential)) return v.verify(credential);
    const check = await this.keys.check(credential);
    if (!check.ok) return { ok: false, reason: check.reason };
    return { ok: true, principal: principalOf(check.key) };
  }

  /** The principal of a credential the caches hold, with nothing awaited; null when `authenticate` must decide. */
  cached(credential: string): Principal | null {
    for (const v of this.verifiers) if (v.accepts(credential)) return v.cached?.(credential) ?? null;
    const key = this.keys.cachedActive(credential);
    return key ? principalOf(key) : null;
  }
}

function principalOf(key: ApiKeyRecord): Principal {
  return { keyId: key.id, accountId: key.accountId ?? key.id, tier: key.tier, via: 'api_key' };
}
