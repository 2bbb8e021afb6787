import { Type } from 'typebox';
import { CURRENCIES } from '../../domain/currencies.js';
import { Int, MAX_AMOUNT, Num, OneOf, Str } from '../schema-kit.js';

/** Parameter pieces of the surface A routes (spec 4.2, bounds of 8.1). */
export const Currency = OneOf(CURRENCIES, { description: 'ISO currency code (spec 8.4)' });
export const Q = Str({ maxLength: 500, description: 'keywords, at most 500 characters' });
export const Limit = (max: number, dflt: number) => Int(1, max, { default: dflt, description: `results per page, 1 to ${max} (default ${dflt})` });
export const Offset = Int(0, 10000, { default: 0, description: 'results to skip, 0 to 10000' });
export const Price = (description: string) => Num(0, MAX_AMOUNT, { description });
export const Bool = (description: string, dflt?: boolean) => Type.Boolean({ description, ...(dflt === undefined ? {} : { default: dflt }) });
export const Category = Str({ maxLength: 200, description: 'case-insensitive partial match on the category name or any level of its path' });
export const Platform = Str({ maxLength: 64, description: 'platform key, exact (e.g. shopee_sg)' });
export const IntegerRef = Type.Object({ ref: Str({ pattern: '^[0-9]{1,15}$', maxLength: 15, description: 'integer product id' }) });
