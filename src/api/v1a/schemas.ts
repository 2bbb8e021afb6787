import { Type } from 'typebox';
import { CURRENCIES } from '../../domain/currencies.js';

/** Parameter pieces shared by the surface A routes. */
export const Currency = Type.Union(CURRENCIES.map((c) => Type.Literal(c)), { description: 'ISO currency code (spec 8.4)' });
export const Q = Type.String({ maxLength: 500, description: 'keywords, at most 500 characters' });
export const Limit = (max: number, dflt: number) => Type.Integer({ minimum: 1, maximum: max, default: dflt });
export const Offset = Type.Integer({ minimum: 0, maximum: 10000, default: 0 });
export const Price = Type.Number({ minimum: 0 });
export const Bool = Type.Boolean();
export const ProductRecord = Type.Object({}, { additionalProperties: true, description: 'Surface A product record (spec 2.1)' });
