import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AlertRefusal } from '../../catalog/alert-service.js';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { invalidInput } from '../../http/request-error.js';
import { CodedError } from '../error-schemas.js';
import { presentAlert, presentFiring } from './alert-present.js';
import { Alert, AlertList, AlertListQuery, AlertParams, CreateAlertBody, FiringList, FiringListQuery } from './alert-schemas.js';
import { withFields } from '../../domain/with-fields.js';

const TAGS = ['alerts'];
const CONFIG = { surface: 'account', minTier: 'free' } as const;

const accountOf = (req: FastifyRequest) => req.principal!.accountId ?? req.principal!.keyId;
const notFound = () => new DomainError('NOT_FOUND', 'No alert with this id belongs to this key.');

function refused(r: AlertRefusal): Error {
  if (r.reason === 'invalid') return invalidInput(['body', ...r.field], r.message);
  return new DomainError('CONFLICT', `This key's tier (${r.tier}) may have at most ${r.max} active alerts; delete one or let one fire or expire first.`,
    { max_active: r.max, tier: r.tier });
}

/** Price and stock alerts of the calling key (account); docs/alerts.md. */
export function alertRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/alerts', {
      config: withFields(CONFIG, { idempotent: true }),
      schema: {
        tags: TAGS, summary: 'Set a price or stock alert on a listing (any id form)',
        description: 'Fires as an `alert_fired` event on the key\'s streams and webhook subscriptions when a logged change meets the condition (docs/alerts.md).',
        body: CreateAlertBody, response: { 201: Alert, 409: CodedError },
      },
    }, async (req, reply) => {
      const b = req.body;
      const r = await c.alerts.create(accountOf(req), req.principal!.tier, {
        product: b.product, condition: b.condition, rearm: b.rearm ?? null, expiresAt: b.expires_at ?? null,
      });
      if (!r.ok) throw refused(r);
      return reply.status(201).send(presentAlert(r.value));
    });

    app.get('/v1/alerts', {
      config: CONFIG,
      schema: { tags: TAGS, summary: 'This key\'s alerts, newest first', querystring: AlertListQuery, response: { 200: AlertList } },
    }, async (req) => {
      const { limit, offset } = req.query;
      const page = await c.alerts.list(accountOf(req), { limit, offset });
      return { data: page.items.map(presentAlert), total: page.total, limit, offset, active: page.active, max_active: c.alerts.limitFor(req.principal!.tier) };
    });

    app.get('/v1/alerts/:id', {
      config: CONFIG,
      schema: { tags: TAGS, summary: 'One alert', params: AlertParams, response: { 200: Alert } },
    }, async (req) => {
      const a = await c.alerts.get(accountOf(req), req.params.id);
      if (!a) throw notFound();
      return presentAlert(a);
    });

    app.delete('/v1/alerts/:id', {
      config: CONFIG,
      schema: { tags: TAGS, summary: 'Delete an alert and its firing history', params: AlertParams, response: { 204: { type: 'null' } } },
    }, async (req, reply) => {
      if (!(await c.alerts.remove(accountOf(req), req.params.id))) throw notFound();
      return reply.status(204).send(null);
    });

    app.get('/v1/alerts/:id/firings', {
      config: CONFIG,
      schema: { tags: TAGS, summary: 'An alert\'s firings, newest first', params: AlertParams, querystring: FiringListQuery, response: { 200: FiringList } },
    }, async (req) => {
      const { limit, offset } = req.query;
      const page = await c.alerts.firings(accountOf(req), req.params.id, { limit, offset });
      if (!page) throw notFound();
      return { data: page.items.map(presentFiring), total: page.total, limit, offset };
    });
  };
}
