import { Type, type TSchema } from 'typebox';
import { CodedError } from '../error-schemas.js';
import { Nullable, OneOf } from '../schema-kit.js';

/** Response schemas of surface V2 (spec 2.2, 4.4). Prices are exact decimal strings; ratings numbers. */

const S = Type.String();
const NS = Nullable(Type.String());
const FreeObject = Nullable(Type.Object({}, { additionalProperties: true }));

const Base = {
  id: Type.Integer(), uuid: S, sku: S, source: S, merchant_id: NS, title: S, description: NS,
  price: Type.String({ description: 'in the asked currency, exact decimal' }), currency: S,
  price_sgd: Type.Union([Type.String(), Type.Null()], { description: 'the SGD price as normalized at ingest (the original SGD price)' }),
  original_price: NS, brand: NS, category: NS, image_url: NS, rating: Nullable(Type.Number()), review_count: Nullable(Type.Integer()),
  region: S, country_code: S, in_stock: Nullable(Type.Boolean()),
  stock_level: Nullable(OneOf(['in_stock', 'low_stock', 'out_of_stock'])), updated_at: S,
};

export const ListRecord = Type.Object({ ...Base, buy_url: S, affiliate_url: NS }, { description: 'V2 list and search record (spec 2.2)' });
export const DetailRecord = Type.Object({
  ...ListRecord.properties, category_path: Nullable(Type.Array(S)), specs: FreeObject, metadata: FreeObject, last_checked: S,
}, { description: 'V2 detail record (spec 2.2)' });
export const BatchRecord = Type.Object({
  ...Base, url: S, affiliate_url: NS, specs: Type.Optional(FreeObject), metadata_: Type.Optional(FreeObject),
}, { description: 'V2 batch record (spec 2.2): url and affiliate_url; specs and metadata_ only with include_metadata' });

export const ProductsResponse = Type.Object({
  total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean(), items: Type.Array(ListRecord),
});
export const SearchResponse = Type.Object({
  query: S, total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean(), items: Type.Array(ListRecord),
});
export const BatchDetailsResponse = Type.Object({
  results: Type.Array(BatchRecord),
  errors: Type.Array(Type.Object({ product_id: Type.Integer(), code: S, message: S })),
});

/** A route's 200 and what its handler alone answers; the statuses every route shares are added at registration (api/route-errors.ts). */
export function responses(ok: TSchema, extra: Record<number, TSchema> = {}): Record<number, TSchema> {
  return { 200: ok, ...extra };
}

/** V2's 404, for a handler that finds nothing by the query or body. */
export const NotFound = { 404: CodedError };
