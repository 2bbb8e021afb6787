import type { Tier } from '../domain/tier.js';
import type { ApiKeyRecord } from '../store/types.js';
import type { CredentialKind } from './auth-guard.js';
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
  /** What the credentials it accepts are called in the logs. */
  kind: CredentialKind;
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

  /** What a credential is, for a log line about it (never the credential itself). */
  kindOf(credential: string): CredentialKind {
    return this.verifiers.find((v) => v.accepts(credential))?.kind ?? 'api_key';
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
