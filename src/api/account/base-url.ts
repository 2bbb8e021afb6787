import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';

/** PUBLIC_URL when set (behind a proxy), otherwise the origin the request reached. Also the OAuth issuer. */
export function baseUrl(config: Config, req: FastifyRequest): string {
  return (config.publicUrl ?? `${req.protocol}://${req.host}`).replace(/\/+$/, '');
}
