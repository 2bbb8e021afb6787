import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Signing secrets of webhook subscriptions. A secret is `whsec_` + base64 of 32 random bytes (the
 * Standard Webhooks form). The service must sign with it, so it is stored, not hashed: sealed with
 * AES-256-GCM when WEBHOOK_SECRET_KEY is configured (a copy of the database then reveals no
 * secret), as it is otherwise. It is shown once (create, rotate) and never logged.
 */

const SEALED = 'sealed:v1:';

export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export class SecretBox {
  /** `key`: 32 bytes, or null to store secrets as they are. */
  constructor(private readonly key: Buffer | null) {
    if (key && key.length !== 32) throw new Error('the webhook secret key must be 32 bytes');
  }

  seal(secret: string): string {
    if (!this.key) return secret;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${SEALED}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The secret, or null when it is sealed and this box has no key (or another key) to open it. */
  open(stored: string): string | null {
    if (!stored.startsWith(SEALED)) return stored;
    if (!this.key) return null;
    try {
      const raw = Buffer.from(stored.slice(SEALED.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** WEBHOOK_SECRET_KEY as configured: 64 hex characters or the base64 of 32 bytes. */
export function parseSecretKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('WEBHOOK_SECRET_KEY must be 32 bytes: 64 hex characters or base64');
  return key;
}

const signers = new Map<string, Webhook>();

/**
 * The three Standard Webhooks headers of one attempt. With several secrets (a rotation's grace
 * period) the signature header carries one signature per secret, space-separated; a receiver
 * holding either secret verifies it.
 */
export function signedHeaders(secrets: readonly string[], msgId: string, at: Date, body: string): Record<string, string> {
  const signatures = secrets.map((s) => {
    let signer = signers.get(s);
    if (!signer) {
      if (signers.size > 10_000) signers.clear();
      signers.set(s, (signer = new Webhook(s)));
    }
    return signer.sign(msgId, at, body);
  });
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
