import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { invalidInput } from '../../http/request-error.js';
import { sendRateLimited } from '../../http/rate-limit.js';
import { baseUrl } from './base-url.js';
import { CodedError, RateLimited } from '../error-schemas.js';
import { MeResponse, RegisterBody, RegisterQuery, RegisterResponse, RotateResponse, VerifyQuery, VerifyResponse } from './schemas.js';

const TAGS = ['account'];

/** Self-registration, email verification, key introspection and rotation (spec 4.1, 5.6, 5.7). */
export function authRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/auth/register', {
      config: { surface: 'account', auth: false, idempotent: true },
      schema: { tags: TAGS, summary: 'Register an agent and get an API key (no key needed)', security: [], querystring: RegisterQuery, body: RegisterBody, response: { 201: RegisterResponse, 429: RateLimited } },
    }, async (req, reply) => {
      const { agent_name: agentName, email } = req.body;
      const verify = req.query.verify ?? email !== undefined;
      const r = await c.registration.register(req.ip, { agentName, email, verify }, (t) => `${baseUrl(c)}/v1/auth/verify?token=${t}`);
      if (!r.ok && r.reason === 'email_required') throw invalidInput(['body', 'email'], 'email is required to verify; pass verify=false to skip verification', 'missing');
      if (!r.ok) return sendRateLimited(reply, r.throttle, `Too many registrations; retry after ${r.throttle.retryAfter} s.`);
      const limits = c.quota.limitsOf(r.record.tier);
      reply.header('Cache-Control', 'no-store');
      return reply.status(201).send({
        api_key: r.apiKey, key_id: r.record.id, prefix: r.record.prefix, tier: r.record.tier,
        limits: { per_minute: limits.perMinute, per_day: limits.perDay },
        verification: r.verification ? { status: 'pending' as const, email: r.verification.email, expires_at: r.verification.expiresAt } : null,
        message: r.verification
          ? 'Key issued in the unverified tier; open the link sent to the email address to move it to the free tier. The key is shown only once.'
          : 'Key issued in the unverified tier. The key is shown only once: store it now.',
      });
    });

    app.get('/v1/auth/verify', {
      config: { surface: 'account', auth: false },
      schema: { tags: TAGS, summary: 'Verify an email address (link from the registration mail)', security: [], querystring: VerifyQuery, response: { 200: VerifyResponse, 400: CodedError } },
    }, async (req) => {
      const r = await c.registration.verify(req.query.token);
      if (!r.ok) throw new DomainError('BAD_REQUEST', r.reason === 'expired' ? 'The verification link has expired; register again.' : 'The verification link is invalid or was already used.');
      return { verified: true, key_id: r.key.id, prefix: r.key.prefix, tier: r.key.tier, message: `Email verified; the key is now in the ${r.key.tier} tier.` };
    });

    app.get('/v1/auth/me', {
      config: { surface: 'account' },
      schema: { tags: TAGS, summary: 'The calling key: tier, limits and current usage', response: { 200: MeResponse } },
    }, async (req) => {
      const p = req.principal!;
      const key = await c.keys.activeById(p.keyId);
      if (!key) throw new DomainError('UNAUTHORIZED', 'The API key or access token is invalid, revoked or expired.');
      const limits = c.quota.limitsOf(p.tier);
      const u = await c.quota.usage(`acct:${p.accountId ?? p.keyId}`, p.tier);
      const usage = (w: typeof u.minute) => ({ used: w.used, limit: w.limit, remaining: w.remaining, reset_at: w.resetAt.toISOString() });
      return {
        key_id: key.id, prefix: key.prefix, name: key.name, tier: key.tier, pending_tier: key.pendingTier, pending_tier_at: key.pendingTierAt,
        verified: key.verified, created_at: key.createdAt, auth: p.via, ...(p.clientId ? { client_id: p.clientId, scope: p.scope } : {}),
        limits: { per_minute: limits.perMinute, per_day: limits.perDay }, usage: { minute: usage(u.minute), day: usage(u.day) },
      };
    });

    app.post('/v1/keys/rotate', {
      config: { surface: 'account' },
      schema: { tags: TAGS, summary: 'Replace the calling key; the old one stops working at once', response: { 200: RotateResponse, 403: CodedError } },
    }, async (req, reply) => {
      const p = req.principal!;
      if (p.via !== 'api_key') throw new DomainError('INSUFFICIENT_SCOPE', 'Rotate with the API key itself, not an OAuth access token.');
      const key = await c.keys.activeById(p.keyId);
      const r = key ? await c.keyAdmin.rotate(key) : null;
      if (!r?.ok) throw new DomainError('UNAUTHORIZED', 'The API key was already rotated or revoked.');
      reply.header('Cache-Control', 'no-store');
      return {
        api_key: r.apiKey, key_id: r.record.id, prefix: r.record.prefix,
        message: 'New key issued; the previous key is revoked now and its open streams are closed. The key is shown only once.',
      };
    });
  };
}
