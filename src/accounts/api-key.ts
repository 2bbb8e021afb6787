import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { digest } from '../domain/digest.js';

/**
 * API key format: `ck_<32 base62 secret><6 base62 checksum>`. The checksum lets us refuse a typo
 * without touching the store; only the SHA-256 of the whole key is stored.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'ck_';
const SECRET_LEN = 32;
const CHECK_LEN = 6;

function base62(bytes: Buffer, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += ALPHABET[bytes[i % bytes.length] % 62];
  return out;
}

function checksum(secret: string): string {
  return base62(createHash('sha256').update(`catalog-key:${secret}`).digest(), CHECK_LEN);
}

export function generateApiKey(random: (n: number) => Buffer = randomBytes): string {
  // Rejection sampling keeps every base62 character equally likely.
  let secret = '';
  while (secret.length < SECRET_LEN) {
    for (const b of random(48)) if (b < 248 && secret.length < SECRET_LEN) secret += ALPHABET[b % 62];
  }
  return `${KEY_PREFIX}${secret}${checksum(secret)}`;
}

export function looksLikeApiKey(key: string): boolean {
  if (!key.startsWith(KEY_PREFIX) || key.length !== KEY_PREFIX.length + SECRET_LEN + CHECK_LEN) return false;
  const body = key.slice(KEY_PREFIX.length);
  const secret = body.slice(0, SECRET_LEN);
  const given = Buffer.from(body.slice(SECRET_LEN));
  const expected = Buffer.from(checksum(secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function hashSecret(secret: string): string {
  return digest('sha256', secret, 'hex');
}

/** The non-secret part shown in listings and logs. */
export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

/** An opaque credential other than an API key (client ids and secrets, access tokens, email tokens): prefix + 256 random bits. */
export function generateToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** Compares two hex digests without leaking where they differ. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
