import type { AccountStore, ApiKeyRecord, KeyStore } from '../store/types.js';
import { generateToken, hashSecret } from './api-key.js';
import type { Clock } from './keys.js';
import type { KeyService } from './keys.js';
import type { Mailer } from './mailer.js';
import type { QuotaService, WindowState } from './quota.js';
import { withFields } from '../domain/with-fields.js';

export const VERIFICATION_TTL_SECONDS = 24 * 3600;
const VERIFY_PREFIX = 'cv_';

export interface RegistrationLimits { perIpPerHour: number; dailyCap: number }

export type RegisterResult =
  | { ok: true; apiKey: string; record: ApiKeyRecord; verification: { email: string; expiresAt: string } | null; throttle: WindowState }
  | { ok: false; reason: 'throttled'; throttle: WindowState }
  | { ok: false; reason: 'email_required' };

export type VerifyResult = { ok: true; key: ApiKeyRecord } | { ok: false; reason: 'invalid' | 'expired' };

/** Self-registration of agents (spec 4.1, 5.6): a key at once in the unverified tier, free after an email check. */
export class RegistrationService {
  constructor(
    private readonly keys: KeyService,
    private readonly keyStore: KeyStore,
    private readonly accounts: AccountStore,
    private readonly quota: QuotaService,
    private readonly mailer: Mailer,
    private readonly limits: RegistrationLimits,
    private readonly clock: Clock,
  ) {}

  /** `verifyUrl` turns a token into the link mailed to the agent's operator. */
  async register(ip: string, input: { agentName: string; email?: string; verify: boolean }, verifyUrl: (token: string) => string): Promise<RegisterResult> {
    if (input.verify && !input.email) return { ok: false, reason: 'email_required' };
    const perIp = await this.quota.fixed(`reg:ip:${ip}`, 'hour', this.limits.perIpPerHour);
    if (!perIp.ok) return { ok: false, reason: 'throttled', throttle: perIp.state };
    const all = await this.quota.fixed('reg:all', 'day', this.limits.dailyCap);
    if (!all.ok) return { ok: false, reason: 'throttled', throttle: all.state };

    const { apiKey, record } = await this.keys.create({ tier: 'unverified', name: input.agentName, email: input.email ?? null, verified: false });
    let verification: { email: string; expiresAt: string } | null = null;
    if (input.verify && input.email) {
      const token = generateToken(VERIFY_PREFIX);
      const expiresAt = new Date(this.clock.now().getTime() + VERIFICATION_TTL_SECONDS * 1000).toISOString();
      await this.accounts.createVerification({ hash: hashSecret(token), keyId: record.id, email: input.email, expiresAt });
      await this.mailer.send({
        to: input.email,
        subject: 'Verify your catalog API key',
        text: `The agent "${input.agentName}" registered an API key (${record.prefix}...) with this address.\n`
          + `Open this link within 24 hours to move it to the free tier:\n${verifyUrl(token)}\n`,
      });
      verification = { email: input.email, expiresAt };
    }
    return { ok: true, apiKey, record, verification, throttle: perIp.state };
  }

  /** A token verifies once; the key moves up to free (a key already above free keeps its tier). */
  async verify(token: string): Promise<VerifyResult> {
    if (!token.startsWith(VERIFY_PREFIX)) return { ok: false, reason: 'invalid' };
    const rec = await this.accounts.takeVerification(hashSecret(token));
    if (!rec) return { ok: false, reason: 'invalid' };
    if (rec.expiresAt <= this.clock.now().toISOString()) return { ok: false, reason: 'expired' };
    const key = await this.keys.activeById(rec.keyId);
    if (!key) return { ok: false, reason: 'invalid' };
    const tier = key.tier === 'unverified' ? 'free' : key.tier;
    await this.keyStore.update(key.id, { tier, verified: true, email: rec.email });
    this.keys.forget();
    return { ok: true, key: withFields(key, { tier, verified: true, email: rec.email }) };
  }
}
