import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import type { Resolved } from '../../catalog/id-resolver.js';
import { invalidInput } from '../../http/request-error.js';
import { recordsAnswer } from '../record-bytes.js';
import { Body, OneOf, Str } from '../schema-kit.js';
import { presentRecord } from './present.js';
import { BRecord, responses } from './responses.js';
import { Currency } from './schemas.js';

/** The most references one bulk lookup takes (spec 8.1: product_ids of batch lookups, at most 100). */
export const BULK_LOOKUP_MAX = 100;

const MATCHED_AS = ['id', 'uuid', 'sku', 'gtin', 'url'] as const;

export const BulkLookupBody = Body({
  ids: Type.Array(Str({ minLength: 1, maxLength: 2048, description: 'one reference' }), {
    minItems: 1, maxItems: BULK_LOOKUP_MAX,
    description: `1 to ${BULK_LOOKUP_MAX} references, each in any form: integer id, UUID, SKU, GTIN/EAN/UPC (8, 12, 13 or 14 digits, check digit verified) or a listing's product URL`,
  }),
  currency: Type.Optional(Currency),
}, { description: '`ids` required; `currency` converts every price shown (default: each listing\'s own)' });

const Item = Type.Object({
  input: Type.String({ description: 'the reference as sent' }),
  matched_as: OneOf(MATCHED_AS, { description: 'the form the reference matched as' }),
  product: BRecord,
});

export const BulkLookupResponse = Type.Object({
  items: Type.Array(Item, { description: 'one per distinct resolved reference, in the order sent' }),
  unresolved: Type.Array(Type.String(), { description: 'the distinct references nothing answers, in the order sent' }),
  total: Type.Integer({ description: 'number of items' }),
  response_time_ms: Type.Integer({ description: 'time this server took to answer' }),
});


/** POST /v1/products/bulk-lookup (spec 4.6: `ids` in, `items` out), surface B's record in each item. */
export function bulkLookupRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/products/bulk-lookup', {
      config: { minTier: 'pro', heavy: true },
      schema: {
        summary: 'Look up to 100 products by any reference they are known by (surface B; pro and enterprise)',
        description: 'Each reference is read as a UUID, a URL (http or https), or else as an integer id, a SKU, a GTIN and a URL without scheme, '
          + 'in that order: the first form that finds a listing answers (docs/api.md, Bulk lookup). Every resolved reference gets an item naming '
          + 'its input and the form it matched as; the others are listed in `unresolved`. A repeated reference is answered once.',
        body: BulkLookupBody,
        response: responses(BulkLookupResponse),
      },
    }, async (req, reply) => {
      const inputs = [...new Set(req.body.ids)];
      const blank = req.body.ids.findIndex((s) => !s.trim());
      if (blank >= 0) throw invalidInput(['body', 'ids', blank], 'a reference must not be blank', 'string_too_short');
      const resolved = await c.products.resolveMany(inputs);
      const hits = inputs.flatMap((input, i) => (resolved[i] ? [{ input, r: resolved[i] as Resolved }] : []));
      // The B record shows no group sizes: the views skip reading them.
      const views = c.views.with(hits.map((h) => h.r.listing), new Map(), req.body.currency);
      return recordsAnswer(reply, {
        items: [],
        unresolved: inputs.filter((_, i) => !resolved[i]),
        total: hits.length,
        response_time_ms: Math.max(0, Math.round(reply.elapsedTime)),
      }, 'items', hits.map((h, i) => ({ input: h.input, matched_as: h.r.form, product: presentRecord(views[i]) })));
    });
  };
}
