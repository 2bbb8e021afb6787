import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import type { Refusal } from '../../events/webhook-service.js';
import { invalidInput } from '../../http/request-error.js';
import { CodedError } from '../error-schemas.js';
import { presentDelivery, presentSubscription } from './webhook-present.js';
import {
  CreatedSubscription, CreateWebhookBody, DeliveriesQuery, Delivery, DeliveryList, DeliveryParams, RotatedSecret, RotateSecretBody,
  Subscription, SubscriptionList, UpdateWebhookBody, WebhookParams,
} from './webhook-schemas.js';
import { withFields } from '../../domain/with-fields.js';

const TAGS = ['webhooks'];
const CONFIG = { surface: 'account', minTier: 'pro' } as const;

const accountOf = (req: FastifyRequest) => req.principal!.accountId ?? req.principal!.keyId;

/** The answer to a refused change, in the account surface's envelopes. */
function refused(r: Refusal): Error {
  switch (r.reason) {
    case 'not_found': return new DomainError('NOT_FOUND', 'No webhook subscription (or delivery) with this id belongs to this key.');
    case 'limit': return new DomainError('CONFLICT', `This key already has the maximum of ${r.max} webhook subscriptions; delete one first.`, { max_per_key: r.max });
    case 'invalid': return invalidInput(['body', r.field], r.message);
    case 'pending': return new DomainError('CONFLICT', 'The delivery is still queued; it can be retried once it has succeeded or been dead-lettered.');
  }
}

const notFound = () => refused({ ok: false, reason: 'not_found' });

/**
 * Webhook subscriptions (spec 2.8, 4.5) and their management (ours: spec 4.6 shows none): Pro and
 * Enterprise keys; each key (account) sees only its own. docs/realtime.md, "Webhooks".
 */
export function webhookRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/webhooks', {
      config: withFields(CONFIG, { idempotent: true }),
      schema: {
        tags: TAGS, summary: 'Subscribe a url to price or stock changes (pro and enterprise)',
        description: 'Answers the subscription with its signing `secret`, shown only in this answer. Deliveries are signed in the Standard Webhooks scheme.',
        body: CreateWebhookBody, response: { 201: CreatedSubscription, 409: CodedError },
      },
    }, async (req, reply) => {
      const { url, events, filters } = req.body;
      const r = await c.webhooks.create(accountOf(req), { url, events, productIds: filters?.product_ids, minPriceChangePct: filters?.min_price_change_pct });
      if (!r.ok) throw refused(r);
      reply.header('Cache-Control', 'no-store');
      return reply.status(201).send(withFields(presentSubscription(r.value.subscription), { secret: r.value.secret }));
    });

    app.get('/v1/webhooks', {
      config: CONFIG,
      schema: { tags: TAGS, summary: 'This key\'s webhook subscriptions', response: { 200: SubscriptionList } },
    }, async (req) => {
      const subs = await c.webhooks.list(accountOf(req));
      return { data: subs.map(presentSubscription), total: subs.length, max_per_key: c.webhooks.maxPerAccount };
    });

    app.get('/v1/webhooks/:id', {
      config: CONFIG,
      schema: { tags: TAGS, summary: 'One webhook subscription', params: WebhookParams, response: { 200: Subscription } },
    }, async (req) => {
      const s = await c.webhooks.get(accountOf(req), req.params.id);
      if (!s) throw notFound();
      return presentSubscription(s);
    });

    app.patch('/v1/webhooks/:id', {
      config: CONFIG,
      schema: {
        tags: TAGS, summary: 'Change a subscription: url, events, filters, or status (active, paused)',
        params: WebhookParams, body: UpdateWebhookBody, response: { 200: Subscription },
      },
    }, async (req) => {
      const b = req.body;
      if (b.url === undefined && b.events === undefined && b.filters === undefined && b.status === undefined) {
        throw invalidInput(['body'], 'nothing to change: give url, events, filters or status', 'missing');
      }
      const r = await c.webhooks.update(accountOf(req), req.params.id, {
        url: b.url, events: b.events, status: b.status,
        filters: b.filters ? { productIds: b.filters.product_ids ?? null, minPriceChangePct: b.filters.min_price_change_pct } : undefined,
      });
      if (!r.ok) throw refused(r);
      return presentSubscription(r.value);
    });

    app.delete('/v1/webhooks/:id', {
      config: CONFIG,
      schema: { tags: TAGS, summary: 'Delete a subscription and its delivery log', params: WebhookParams, response: { 204: { type: 'null' } } },
    }, async (req, reply) => {
      if (!(await c.webhooks.remove(accountOf(req), req.params.id))) throw notFound();
      return reply.status(204).send(null);
    });

    app.post('/v1/webhooks/:id/rotate-secret', {
      config: withFields(CONFIG, { idempotent: true }),
      // The body is optional: a POST without one takes the defaults.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags: TAGS, summary: 'Replace the signing secret (the new one is shown only now)',
        description: 'Until `previous_secret_expires_at` deliveries carry two signatures, one per secret, so a receiver can switch without losing any.',
        params: WebhookParams, body: RotateSecretBody, response: { 200: RotatedSecret },
      },
    }, async (req, reply) => {
      const r = await c.webhooks.rotateSecret(accountOf(req), req.params.id, req.body.previous_secret_valid_seconds);
      if (!r.ok) throw refused(r);
      reply.header('Cache-Control', 'no-store');
      return { id: r.value.subscription.id, secret: r.value.secret, previous_secret_expires_at: r.value.previousSecretUntil };
    });

    app.post('/v1/webhooks/:id/test', {
      config: withFields(CONFIG, { idempotent: true }),
      schema: {
        tags: TAGS, summary: 'Send a signed test event now and answer with the attempt',
        description: 'The event is `test`; it is sent even to a paused subscription, once, and listed with the deliveries.',
        params: WebhookParams, response: { 200: Delivery },
      },
    }, async (req) => {
      const r = await c.webhooks.test(accountOf(req), req.params.id);
      if (!r.ok) throw refused(r);
      return presentDelivery(r.value);
    });

    app.get('/v1/webhooks/:id/deliveries', {
      config: CONFIG,
      schema: {
        tags: TAGS, summary: 'The delivery log: each delivery with its attempts (time, status code, duration, error, excerpt) and next try',
        params: WebhookParams, querystring: DeliveriesQuery, response: { 200: DeliveryList },
      },
    }, async (req) => {
      const { status, limit, offset } = req.query;
      const page = await c.webhooks.deliveries(accountOf(req), req.params.id, { status, limit, offset });
      if (!page) throw notFound();
      return { data: page.items.map(presentDelivery), total: page.total, limit, offset };
    });

    app.post('/v1/webhooks/:id/deliveries/:delivery_id/retry', {
      config: withFields(CONFIG, { idempotent: true }),
      schema: {
        tags: TAGS, summary: 'Send a finished (dead-lettered or succeeded) delivery once more, with the same webhook-id and body',
        params: DeliveryParams, response: { 202: Delivery, 409: CodedError },
      },
    }, async (req, reply) => {
      const r = await c.webhooks.retry(accountOf(req), req.params.id, req.params.delivery_id);
      if (!r.ok) throw refused(r);
      return reply.status(202).send(presentDelivery(r.value));
    });
  };
}
