import { Type, type TSchema } from 'typebox';
import { Nullable } from '../schema-kit.js';

/**
 * The requests the service sends to a subscribed url (OpenAPI 3.1 `webhooks`): the bodies built
 * by `eventPayload` and `testPayload` in domain/webhooks.ts, and the Standard Webhooks headers.
 */

const S = Type.String();
/** Exactly these members: the reference test holds the bodies the service builds to them. */
const CLOSED = { additionalProperties: false };
const Head = {
  product_id: Type.String({ format: 'uuid', description: 'the product UUID (surface B id)' }), title: S,
  merchant: Type.String({ description: 'the retailer domain' }),
};
const envelope = (event: string, data: TSchema, eventId: TSchema = Type.Integer({ description: 'the event log id (the streams\' id): order and de-duplicate by it' })) =>
  Type.Object({ event: Type.Literal(event), event_id: eventId, timestamp: Type.String({ format: 'date-time', description: 'when the change was observed' }), data }, CLOSED);

const PriceChange = envelope('price_change', Type.Object({
  ...Head, previous_price: Type.Number(), new_price: Type.Number(), currency: S,
  change_pct: Type.Number({ description: 'negative for a drop' }), url: S,
}, CLOSED));
const StockChange = envelope('stock_change', Type.Object({
  ...Head, previous_in_stock: Nullable(Type.Boolean()), in_stock: Nullable(Type.Boolean()),
  previous_stock_level: Nullable(S), stock_level: Nullable(S), price: Type.Number(), currency: S, url: S,
}, CLOSED));
const AlertFired = envelope('alert_fired', Type.Object({
  alert_id: S, firing_id: Type.String({ description: 'the firing in GET /v1/alerts/{id}/firings' }),
  condition: Type.Object({
    type: S, target: Type.Optional(S), currency: Type.Optional(S), percent: Type.Optional(S), base_price: Type.Optional(S), base_currency: Type.Optional(S),
  }, CLOSED),
  rearms: Type.Boolean({ description: 'whether the alert can fire again (it has a re-arm rule)' }),
  trigger_event_id: Type.Integer({ description: 'the event log id of the change that fired it' }),
  product: Type.Object({
    id: Type.Integer(), uuid: S, title: S, source: S, price: Type.String({ description: 'exact decimal, native currency' }), currency: S,
    in_stock: Nullable(Type.Boolean()), url: S,
  }, CLOSED),
}, CLOSED));
const Test = envelope('test', Type.Object({ subscription_id: S, message: S }, CLOSED), Type.Null());

const HEADERS = [
  { name: 'webhook-id', description: 'the delivery id (msg_...): the same on every attempt of one delivery; de-duplicate on it' },
  { name: 'webhook-timestamp', description: 'the attempt\'s time, Unix seconds; refuse one more than 5 minutes off' },
  { name: 'webhook-signature', description: '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded secret after `whsec_`; two, space-separated, while a rotated secret is still valid' },
];

const VERIFY = 'Verify the raw body before parsing it, with a Standard Webhooks library (Node: `new Webhook(secret).verify(body, headers)` of `standardwebhooks`). '
  + 'Answer 2xx within 10 s; anything else is retried after about 1, 4 and 16 minutes, then dead-lettered. 410 pauses the subscription.';

function delivery(summary: string, body: TSchema) {
  return {
    post: {
      summary, description: VERIFY, tags: ['webhooks'],
      parameters: HEADERS.map((h) => ({ in: 'header', name: h.name, required: true, description: h.description, schema: { type: 'string' } })),
      requestBody: { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(body)) as object } } },
      responses: { '2XX': { description: 'Received: the delivery succeeded' }, '410': { description: 'Gone: the subscription is paused (receiver_gone)' } },
    },
  };
}

export const WEBHOOK_EVENTS = {
  price_change: delivery('price_change: a listing\'s price changed by at least the subscription\'s min_price_change_pct', PriceChange),
  stock_change: delivery('stock_change: a listing\'s stock flag or level changed', StockChange),
  alert_fired: delivery('alert_fired: one of the subscription owner\'s alerts fired (docs/alerts.md)', AlertFired),
  test: delivery('test: sent by POST /v1/webhooks/{id}/test', Test),
};
