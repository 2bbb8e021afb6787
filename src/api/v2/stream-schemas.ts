import { Type } from 'typebox';
import { MAX_AMOUNT, Num, Nullable, OneOf, Query, Str } from '../schema-kit.js';

/** Request schemas of the two V2 streams (spec 4.4) and the data of their events (spec 6.1, docs/realtime.md). */

const Sgd = (description: string) => Type.Optional(Num(0, MAX_AMOUNT, { description }));
const Category = Type.Optional(Str({ maxLength: 200, description: 'case-insensitive partial match on the category or its path' }));

/** At most this many ids in a price stream's product_ids. */
export const MAX_STREAM_PRODUCT_IDS = 100;

export const ProductStreamQuery = Query({
  category: Category,
  platform: Type.Optional(Str({ maxLength: 64, description: 'platform key, exact (e.g. shopee_sg)' })),
  country: Type.Optional(Str({ maxLength: 100, description: 'comma-separated two-letter codes, or sea' })),
  min_price: Sgd('lowest SGD price, inclusive'),
  max_price: Sgd('highest SGD price, inclusive'),
  in_stock: Type.Optional(Type.Boolean({ description: 'only listings in stock (true) or out of stock (false), as the event left them' })),
});

export const PriceStreamQuery = Query({
  product_ids: Type.Optional(Str({
    maxLength: 1700, pattern: '^ *[0-9]{1,15}( *, *[0-9]{1,15})* *$',
    description: `comma-separated integer product ids, at most ${MAX_STREAM_PRODUCT_IDS}`,
  })),
  min_price: Sgd('lowest new SGD price, inclusive'),
  max_price: Sgd('highest new SGD price, inclusive'),
  min_price_change_pct: Num(0, 1_000_000, { default: 0, description: 'least size of a change in percent, either way (default 0: every change)' }),
  category: Category,
});

/** The header a reconnecting EventSource sends; malformed is a 422 naming it. */
export const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(Str({ maxLength: 15, pattern: '^[0-9]{1,15}$', description: 'resume after this event id (docs/realtime.md)' })),
});

const S = Type.String();
const NS = Nullable(Type.String());
const Status = Nullable(OneOf(['in_stock', 'low_stock', 'out_of_stock']));
const Listing = {
  uuid: S, title: S, currency: S, source: S, country_code: S, url: S, updated_at: S,
};

export const ProductUpdateData = Type.Object({
  id: Type.Integer(), ...Listing, price: S, price_sgd: NS, category: NS, in_stock: Nullable(Type.Boolean()),
  change: OneOf(['created', 'updated']),
}, { additionalProperties: false, description: 'event product_update (spec 6.1: id, title, price, currency, updated_at; the rest ours)' });

export const PriceChangeData = Type.Object({
  product_id: Type.Integer(), ...Listing, old_price: S, new_price: S, change_pct: Type.Number({ description: 'negative for a drop' }),
  old_price_sgd: NS, new_price_sgd: NS,
}, { additionalProperties: false, description: 'event price_change (spec 6.1: product_id, old_price, new_price, change_pct; the rest ours)' });

export const StockChangeData = Type.Object({
  product_id: Type.Integer(), ...Listing, price: S,
  old_stock_status: Status, new_stock_status: Status, old_in_stock: Nullable(Type.Boolean()), new_in_stock: Nullable(Type.Boolean()),
}, { additionalProperties: false, description: 'event stock_change (fields ours, docs/realtime.md)' });

/** The 200 is a text/event-stream; its events are described in docs/realtime.md (429 also: too many streams for the key). */
export function streamResponses() {
  return {
    200: {
      description: 'text/event-stream: retry hint, then events ready, product_update / price_change / stock_change, heartbeat, reset, close (docs/realtime.md)',
      content: { 'text/event-stream': { schema: { type: 'string', description: 'SSE frames: `id:`, `event:` and `data:` lines (JSON), separated by a blank line' } } },
    },
  };
}
