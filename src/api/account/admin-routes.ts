import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { hashSecret, sameHash } from '../../accounts/api-key.js';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { authFailed, refuseGuessing } from '../../http/auth.js';
import { CodedError, RateLimited } from '../error-schemas.js';
import { SetTierBody, SetTierParams, SetTierResponse } from './schemas.js';

/**
 * The admin secret from `X-Admin-Secret`, compared in constant time; no secret configured = admin
 * API off (403). Failures count against the address like a wrong key (429 past the limit).
 */
async function assertAdmin(c: Container, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (await refuseGuessing(req, reply, c.authGuard)) return;
  const given = req.headers['x-admin-secret'];
  const ok = !!c.config.adminSecret && typeof given === 'string' && sameHash(hashSecret(given), hashSecret(c.config.adminSecret));
  if (ok) return;
  await authFailed(req, c.authGuard, 'admin_secret');
  throw new DomainError('FORBIDDEN', 'Invalid admin secret.');
}

export function adminRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post('/v1/admin/keys/:key/tier', {
      config: { surface: 'account', auth: false },
      schema: {
        tags: ['admin'], summary: 'Change a key\'s tier (header X-Admin-Secret): upgrades now, downgrades at the end of the billing cycle',
        security: [], params: SetTierParams, body: SetTierBody,
        response: { 200: SetTierResponse, 403: CodedError, 409: CodedError, 429: RateLimited },
      },
      preValidation: async (req, reply) => assertAdmin(c, req, reply),
    }, async (req) => {
      const r = await c.keyAdmin.setTier(req.params.key, req.body.tier);
      if (!r.ok && r.reason === 'ambiguous') throw new DomainError('CONFLICT', 'More than one active key has this prefix; use the key id.');
      if (!r.ok) throw new DomainError('NOT_FOUND', 'active key not found', { key: req.params.key });
      return {
        key_id: r.key.id, prefix: r.key.prefix, tier: r.key.tier, pending_tier: r.key.pendingTier, pending_tier_at: r.key.pendingTierAt,
        effective: r.effective, effective_at: r.at,
      };
    });
  };
}
