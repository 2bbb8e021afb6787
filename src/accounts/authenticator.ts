import type { Tier } from '../store/types.js';
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
    return { ok: true, principal: { keyId: check.key.id, accountId: check.key.accountId ?? check.key.id, tier: check.key.tier, via: 'api_key' } };
  }
}
