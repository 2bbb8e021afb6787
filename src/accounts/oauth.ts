import type { AccessTokenRecord, ApiKeyRecord, OAuthClientRecord, OAuthClientType, OAuthStore } from '../store/types.js';
import { generateToken, hashSecret, sameHash } from './api-key.js';
import type { AuthResult, CredentialVerifier, Principal } from './authenticator.js';
import type { KeyCache } from './key-cache.js';
import type { Clock, KeyService } from './keys.js';
import type { QuotaService, WindowState } from './quota.js';

export const OAUTH_SCOPES = ['catalog:read', 'offers:read'] as const;
export const TOKEN_TTL_SECONDS = 3600;
export const CLIENT_REGISTRATIONS_PER_HOUR = 5;
const CLIENT_ID_PREFIX = 'cci_';
const CLIENT_SECRET_PREFIX = 'ccs_';
export const ACCESS_TOKEN_PREFIX = 'cat_';
const DEFAULT_SCOPE = OAUTH_SCOPES.join(' ');
/** Compared against when the client id is unknown, so a miss costs the same as a wrong secret. */
const DUMMY_HASH = hashSecret('no-such-client');

export type RegisterClientResult =
  | { ok: true; client: OAuthClientRecord; clientSecret: string | null; throttle: WindowState }
  | { ok: false; reason: 'throttled'; throttle: WindowState }
  | { ok: false; reason: 'invalid_scope' };

export type ClientAuthResult = { ok: true; client: OAuthClientRecord } | { ok: false; reason: 'invalid_client' | 'unauthorized_client' };
export type IssueResult =
  | { ok: true; accessToken: string; expiresIn: number; scope: string }
  | { ok: false; reason: 'invalid_scope' | 'invalid_client' };

export interface Introspection {
  active: boolean;
  scope?: string; client_id?: string; token_type?: string; exp?: number; iat?: number; sub?: string;
}

/** Scopes as a sorted, de-duplicated space-separated list; null when one is not offered. */
export function normalizeScope(requested: string | undefined, allowed: string): string | null {
  if (requested === undefined || requested.trim() === '') return allowed;
  const ok = new Set(allowed.split(' '));
  const asked = [...new Set(requested.trim().split(/\s+/))];
  return asked.every((s) => ok.has(s)) ? asked.sort().join(' ') : null;
}

/** A token's record as read, with its expiry as a number: it is compared on every request. */
export interface KnownToken { rec: AccessTokenRecord; expiresMs: number }

/** OAuth 2.1 client credentials (RFC 7591 registration, RFC 7009 revocation, RFC 7662 introspection). */
export class OAuthService {
  /**
   * `tokens`: unrevoked access tokens by hash, given where the store has one process (as keys are
   * remembered there); a revocation clears it at once. With many instances a token revoked on one
   * would be refused on another only when its entry expired, so there (null) every request reads
   * its token.
   */
  constructor(
    private readonly store: OAuthStore,
    private readonly keys: KeyService,
    private readonly quota: QuotaService,
    private readonly clock: Clock,
    private readonly tokens: KeyCache<KnownToken> | null = null,
  ) {}

  /**
   * A client registered with a key inherits that key's tier and limits. An anonymous one gets an
   * account of its own in the unverified tier (a key nobody holds, so it can be upgraded like any other).
   */
  async registerClient(ip: string, input: { name: string; type: OAuthClientType; scope?: string }, owner: ApiKeyRecord | null): Promise<RegisterClientResult> {
    const scope = normalizeScope(input.scope, DEFAULT_SCOPE);
    if (scope === null) return { ok: false, reason: 'invalid_scope' };
    const limit = await this.quota.fixed(`oauth-reg:ip:${ip}`, 'hour', CLIENT_REGISTRATIONS_PER_HOUR);
    if (!limit.ok) return { ok: false, reason: 'throttled', throttle: limit.state };
    const keyId = owner?.id ?? (await this.keys.create({ tier: 'unverified', name: `oauth client: ${input.name}` })).record.id;
    const clientSecret = input.type === 'confidential' ? generateToken(CLIENT_SECRET_PREFIX) : null;
    const client: OAuthClientRecord = {
      clientId: generateToken(CLIENT_ID_PREFIX, 16), secretHash: clientSecret ? hashSecret(clientSecret) : null,
      name: input.name, type: input.type, keyId, scope, createdAt: this.clock.now().toISOString(),
    };
    await this.store.createClient(client);
    return { ok: true, client, clientSecret, throttle: limit.state };
  }

  async authenticateClient(clientId: string, clientSecret: string | undefined): Promise<ClientAuthResult> {
    const client = clientId.startsWith(CLIENT_ID_PREFIX) ? await this.store.findClient(clientId) : null;
    const given = hashSecret(clientSecret ?? '');
    const matches = sameHash(given, client?.secretHash ?? DUMMY_HASH);
    if (!client || (client.type === 'confidential' && (!clientSecret || !matches))) return { ok: false, reason: 'invalid_client' };
    // Public clients are reserved for authorization code with PKCE (spec 5.5); they get no tokens yet.
    if (client.type === 'public') return { ok: false, reason: 'unauthorized_client' };
    return { ok: true, client };
  }

  async issueToken(client: OAuthClientRecord, requestedScope: string | undefined): Promise<IssueResult> {
    const scope = normalizeScope(requestedScope, client.scope);
    if (scope === null) return { ok: false, reason: 'invalid_scope' };
    const owner = await this.keys.activeById(client.keyId);
    if (!owner) return { ok: false, reason: 'invalid_client' };
    const accessToken = generateToken(ACCESS_TOKEN_PREFIX);
    const now = this.clock.now();
    await this.store.createToken({
      hash: hashSecret(accessToken), clientId: client.clientId, keyId: owner.id, scope,
      issuedAt: now.toISOString(), expiresAt: new Date(now.getTime() + TOKEN_TTL_SECONDS * 1000).toISOString(), revokedAt: null,
    });
    return { ok: true, accessToken, expiresIn: TOKEN_TTL_SECONDS, scope };
  }

  /** RFC 7009: a client revokes only its own tokens; anything else is silently ignored (the answer is 200 either way). */
  async revoke(client: OAuthClientRecord, token: string): Promise<void> {
    const rec = await this.store.findToken(hashSecret(token));
    if (rec && rec.clientId === client.clientId) {
      await this.store.revokeToken(rec.hash, this.clock.now().toISOString());
      this.tokens?.clear();
    }
  }

  /** RFC 7662: a client learns about its own tokens only; another client's token reads as inactive. */
  async introspect(client: OAuthClientRecord, token: string): Promise<Introspection> {
    const rec = await this.store.findToken(hashSecret(token));
    if (!rec || rec.clientId !== client.clientId) return { active: false };
    const check = await this.check(token);
    if (!check.ok) return { active: false };
    return {
      active: true, scope: rec.scope, client_id: rec.clientId, token_type: 'Bearer',
      exp: Math.floor(Date.parse(rec.expiresAt) / 1000), iat: Math.floor(Date.parse(rec.issuedAt) / 1000), sub: `key:${rec.keyId}`,
    };
  }

  /** The access token as a credential: valid while unexpired, unrevoked and its owner key still active. */
  async check(token: string): Promise<AuthResult> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return { ok: false, reason: 'malformed' };
    const hash = hashSecret(token);
    const known = this.tokens?.get(hash) ?? (await this.lookUp(hash));
    if (!known) return { ok: false, reason: 'unknown' };
    if (known.rec.revokedAt) return { ok: false, reason: 'revoked' };
    if (this.expired(known)) return { ok: false, reason: 'expired' };
    const owner = await this.keys.activeOwner(known.rec.keyId);
    if (!owner) return { ok: false, reason: 'revoked' };
    return { ok: true, principal: principalOf(known.rec, owner) };
  }

  /** check's principal from memory, with nothing awaited; null when `check` must decide. */
  cached(token: string): Principal | null {
    if (!this.tokens || !token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
    const known = this.tokens.get(hashSecret(token));
    if (!known || this.expired(known)) return null;
    const owner = this.keys.cachedOwner(known.rec.keyId);
    return owner ? principalOf(known.rec, owner) : null;
  }

  private async lookUp(hash: string): Promise<KnownToken | null> {
    const generation = this.tokens?.generation ?? 0;
    const rec = await this.store.findToken(hash);
    if (!rec) return null;
    const known = { rec, expiresMs: Date.parse(rec.expiresAt) };
    if (!rec.revokedAt) this.tokens?.set(hash, known, generation);
    return known;
  }

  private expired(known: KnownToken): boolean {
    return known.expiresMs <= this.clock.now().getTime();
  }

  verifier(): CredentialVerifier {
    return { kind: 'access_token', accepts: (c) => c.startsWith(ACCESS_TOKEN_PREFIX), verify: (c) => this.check(c), cached: (c) => this.cached(c) };
  }

  async purgeExpired(): Promise<number> {
    return this.store.purgeExpiredTokens(this.clock.now().toISOString());
  }
}

function principalOf(rec: AccessTokenRecord, owner: ApiKeyRecord): Principal {
  return { keyId: owner.id, accountId: owner.accountId ?? owner.id, tier: owner.tier, via: 'oauth', clientId: rec.clientId, scope: rec.scope };
}
