import crypto from 'node:crypto';

/**
 * A digest of `data` in one call. Node's one-shot crypto.hash (20.12+) costs about half what a
 * Hash object does, and keys, lines, UUIDs and entity tags are hashed on every request or line.
 */
export const digest: (algorithm: 'sha1' | 'sha256', data: string | Buffer, encoding: 'hex' | 'base64' | 'base64url') => string =
  typeof crypto.hash === 'function'
    ? (algorithm, data, encoding) => crypto.hash(algorithm, data, encoding)
    : (algorithm, data, encoding) => crypto.createHash(algorithm).update(data).digest(encoding);
