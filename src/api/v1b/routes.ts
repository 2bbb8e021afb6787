import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastJson from 'fast-json-stringify';
import type { Container } from '../../container.js';
import { COUNTRY_CURRENCY, SEA_COUNTRIES, type Currency } from '../../domain/currencies.js';
import { DomainError } from '../../domain/errors.js';
import { isUuid } from '../../domain/listing-id.js';
import type { Listing } from '../../domain/listing.js';
import { invalidInput } from '../../http/request-error.js';
import { WireError } from '../../http/wire-error.js';
import type { ListingFilter, SortKey } from '../../store/types.js';
import { clean, priceBounds } from '../params.js';
import { JSON_TYPE, RecordBytes } from '../record-bytes.js';
import { clickUrl } from './click-routes.js';
import {
  FIELD_NAMES, presentCategory, presentCategoryRecord, presentCompact, presentCompareRecord, presentDaily, presentDeal, presentFields,
  presentGranular, presentRecord, presentSimilarRecord, type FieldName,
} from './present.js';
import {
  CategoriesResponse, CategoryResponse, CompareResponse, DailyHistoryResponse, DealsResponse, DetailResponse, GranularHistoryResponse,
  PlainError, SearchResponse, SimilarResponse, responses,
} from './responses.js';
import {
  CategoriesQuery, CategoryQuery, CompareQuery, DealsQuery, HistoryQuery, SearchQuery, SimilarQuery, Slug, UuidRef,
} from './schemas.js';
import { withFields } from '../../domain/with-fields.js';

/** Milliseconds since the request arrived, as the answer reports it. */
const took = (reply: FastifyReply) => Math.max(0, Math.round(reply.elapsedTime));
/** `cached` is false when computed; a response-cache hit rewrites it (http/cache.ts). */
const timing = (reply: FastifyReply) => ({ response_time_ms: took(reply), cached: false });

/** The `fields` list, every name known; an unknown one is a 422 naming it. */
function fieldsOf(text: string | undefined): FieldName[] | null {
  if (text === undefined) return null;
  const names = text.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(FIELD_NAMES as readonly string[]).includes(n));
  if (unknown.length) throw invalidInput(['query', 'fields'], `unknown field ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${FIELD_NAMES.join(', ')}`, 'enum');
  if (!names.length) throw invalidInput(['query', 'fields'], 'name at least one field', 'missing');
  return names as FieldName[];
}

/** The listing a surface B reference names: only a UUID names one here. */
async function listingByUuid(c: Container, ref: string): Promise<Listing | null> {
  const r = await c.products.resolve(ref);
  return r?.form === 'uuid' ? r.listing : null;
}

async function byUuid(c: Container, ref: string): Promise<Listing> {
  const l = await listingByUuid(c, ref);
  if (!l) throw new DomainError('NOT_FOUND', 'Product not found.', { id: ref });
  return l;
}

const DETAIL_CONFIG = { cacheSeconds: 60 };
/** Fastify's own serializer for the answer (fast-json-stringify), compiled once for the route and the front door alike. */
const detailAnswerText = fastJson(DetailResponse as never);

/** Surface B (spec 4.3): UUID-keyed v1 over the same services as surface A. */
export function routes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const detailText = async (l: Listing, took: () => number) => {
      // Surface B's record shows no group size (presentRecord), so none is read.
      const record = presentRecord(c.views.sized(l, null));
      return detailAnswerText({ results: [record], total: 1, page: { limit: 1, offset: 0 }, response_time_ms: Math.max(0, Math.round(took())), cached: false });
    };
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const records = new RecordBytes(presentRecord, SearchResponse.properties.results.items);

    app.get('/v1/products/search', {
      constraints: { surface: 'B' },
      // Each result's click_url is signed for the key that asked: cached per key, never shared.
      // No ETag: the search is recorded, and its links are signed for each request.
      config: { cacheSeconds: 60, cachePerKey: true, etag: false },
      schema: {
        summary: 'Product search (surface B)', querystring: SearchQuery, response: responses(SearchResponse),
        description: `Without \`region\`, the market is \`country_code\` (default SG); \`region=SEA\` is every Southeast Asian market. Prices are shown, and min/max_price read, in \`currency\` (default: the market's currency, SGD for SEA). `
          + 'Every result carries a `click_url` (docs/api.md, tracked links); the search is recorded with its `shopping_job_id`, a cached answer too.',
      },
      // After the answer is sent, whether computed or from the cache (where no handler runs).
      onResponse: (req, reply, done) => {
        if (reply.statusCode === 200 && req.principal) {
          c.activity.recordSearch({
            keyId: req.principal.keyId, jobId: c.clicks.jobIdOf(req.query.shopping_job_id), query: req.query.q,
            total: (req.cacheNote as { total?: number } | null)?.total ?? null, at: c.clock.now().toISOString(),
          });
        }
        done();
      },
    }, async (req, reply) => {
      const q = req.query;
      const countries = q.region === 'SEA' ? SEA_COUNTRIES : [q.region ?? q.country_code ?? 'SG'];
      const currency: Currency = q.currency ?? (q.region === 'SEA' ? 'SGD' : COUNTRY_CURRENCY[countries[0]] ?? 'SGD');
      const bounds = priceBounds(c.fx, q.min_price, q.max_price, currency, ['min_price', 'max_price']);
      const fields = fieldsOf(q.fields);
      const offset = q.page !== undefined ? (q.page - 1) * q.limit : q.offset ?? 0;
      if (offset > 10000) throw invalidInput(['query', q.page !== undefined ? 'page' : 'offset'], 'the results start past 10000; narrow the query', 'less_than_equal');
      const availability: ListingFilter = q.availability === 'in_stock' ? { inStock: true }
        : q.availability === 'out_of_stock' ? { inStock: false }
          : q.availability ? { stockLevels: [q.availability] } : {};
      const r = await c.catalog.search({
        text: q.q, sort: q.sort as SortKey, limit: q.limit, offset,
        filter: clean({ categoryLike: q.category, brandLike: q.brand, domain: q.domain, countries, ...availability, ...bounds }),
      }, { currency });
      const jobId = c.clicks.jobIdOf(q.shopping_job_id);
      const sign = await c.clicks.signer(req.principal!.keyId, jobId);
      const link = (v: (typeof r.items)[number]) => clickUrl(c.origin(), sign(v.listing.id), jobId);
      req.cacheNote = { total: r.total };
      const envelope = { total: r.total, page: { limit: q.limit, offset }, ...timing(reply) };
      // The full record is kept per listing; its click_url, signed for this key, is added last.
      if (!fields && !q.compact) return records.page(reply, { results: [], ...envelope }, 'results', r.items, (v) => `,"click_url":${JSON.stringify(link(v))}`);
      const present = fields ? (v: (typeof r.items)[number]) => presentFields(v, fields) : presentCompact;
      return { results: r.items.map((v) => Object.assign(present(v), { click_url: link(v) })), ...envelope };
    });

    app.get('/v1/products/:ref', {
      constraints: { surface: 'B' },
      config: DETAIL_CONFIG,
      schema: { summary: 'Product detail by UUID (surface B)', params: UuidRef, response: responses(DetailResponse) },
    }, async (req, reply) => reply.type(JSON_TYPE).send(await detailText(await byUuid(c, req.params.ref), () => reply.elapsedTime)));
    // A product by UUID never asked before is read and answered on the request event, as above.
    app.frontDoor?.answerCold({
      prefix: '/v1/products/', takes: isUuid, surface: 'v1b', config: DETAIL_CONFIG, type: JSON_TYPE,
      answer: async (ref, took) => {
        const l = await listingByUuid(c, ref);
        return l ? detailText(l, took) : null;
      },
    });

    app.get('/v1/products/:ref/price-history', {
      constraints: { surface: 'B' },
      schema: { summary: 'Daily price history by UUID (surface B)', params: UuidRef, querystring: HistoryQuery(180), response: responses(DailyHistoryResponse) },
    }, async (req, reply) => {
      const w = await c.history.window(await byUuid(c, req.params.ref), req.query.days);
      return { data: presentDaily(w), meta: { days: req.query.days, response_time_ms: took(reply) } };
    });

    app.get('/v1/products/:ref/prices', {
      schema: { summary: 'Every price observation in the window (surface B)', params: UuidRef, querystring: HistoryQuery(90), response: responses(GranularHistoryResponse) },
    }, async (req, reply) => {
      const w = await c.history.window(await byUuid(c, req.params.ref), req.query.days);
      return { data: presentGranular(w), meta: { days: req.query.days, response_time_ms: took(reply) } };
    });

    app.get('/v1/products/:ref/similar', {
      schema: {
        summary: 'Similar products: same brand and category, ranked by shared title words (surface B)', params: UuidRef,
        querystring: SimilarQuery, response: responses(SimilarResponse),
      },
    }, async (req, reply) => {
      const listing = await byUuid(c, req.params.ref);
      const similar = await c.catalog.similar(listing, req.query.limit);
      return { data: similar.map(presentSimilarRecord), meta: { source_id: listing.uuid, count: similar.length, response_time_ms: took(reply) } };
    });

    app.get('/v1/products/compare', {
      constraints: { surface: 'B' },
      config: { minTier: 'pro' },
      schema: {
        summary: 'Compare or look up 2 to 10 products by UUID (surface B; pro and enterprise)', querystring: CompareQuery,
        description: 'Also the bulk lookup by id list of spec 4.3. Fewer than 2 ids is a 400 with a plain error string.',
        response: responses(CompareResponse, { 400: PlainError }),
      },
    }, async (req, reply) => {
      const ids = [...new Set(req.query.ids.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
      if (ids.length < 2) throw new WireError(400, { error: 'Provide at least 2 product ids (comma-separated UUIDs) to compare.' });
      if (ids.length > 10) throw invalidInput(['query', 'ids'], 'at most 10 ids', 'too_long');
      const bad = ids.find((id) => !isUuid(id));
      if (bad) throw invalidInput(['query', 'ids'], `"${bad}" is not a product UUID`, 'uuid_parsing');
      const found: Listing[] = [];
      const notFound: string[] = [];
      for (const id of ids) {
        const r = await c.products.resolve(id);
        if (r) found.push(r.listing);
        else notFound.push(id);
      }
      const views = await c.views.of(found, { currency: req.query.currency });
      const currencies = new Set(views.map((v) => v.converted?.currency ?? v.listing.currency));
      const mixed = currencies.size > 1;
      return {
        results: views.map(presentCompareRecord), total: views.length, page: { limit: 10, offset: 0 },
        currencies_mixed: mixed,
        currency_warning: mixed ? `Prices are in different currencies (${[...currencies].sort().join(', ')}); pass currency= to compare them in one.` : null,
        not_found: notFound, ...timing(reply),
      };
    });

    app.get('/v1/products/deals', {
      schema: { summary: 'Discounted products, biggest discount first (surface B)', querystring: DealsQuery, response: responses(DealsResponse) },
    }, async (req, reply) => {
      const q = req.query;
      const r = await c.catalog.discounted({ countries: [q.country_code] }, q.min_discount, q.limit, q.offset, { currency: q.currency, excludeFlagged: q.exclude_fake_discounts });
      return { results: r.items.map(presentDeal), total: r.total, page: { limit: q.limit, offset: q.offset }, ...timing(reply) };
    });

    app.get('/v1/categories', {
      constraints: { surface: 'B' },
      schema: { summary: 'Categories with slugs and counts (surface B)', querystring: CategoriesQuery, response: responses(CategoriesResponse) },
    }, async (_req, reply) => {
      const data: ReturnType<typeof presentCategory>[] = [];
      const walk = (nodes: Awaited<ReturnType<typeof c.catalog.categoryTree>>) => nodes.forEach((n) => { data.push(presentCategory(n)); walk(n.children); });
      walk(await c.catalog.categoryTree());
      return { data, meta: { total: data.length, response_time_ms: took(reply) } };
    });

    app.get('/v1/categories/:slug', {
      schema: { summary: 'A category: its subcategories and products (surface B)', params: Slug, querystring: CategoryQuery, response: responses(CategoryResponse) },
    }, async (req, reply) => {
      const q = req.query;
      const node = await c.catalog.categoryBySlug(req.params.slug);
      if (!node) throw new DomainError('NOT_FOUND', 'Category not found.', { slug: req.params.slug });
      const r = await c.catalog.inCategory(node, q.limit, q.offset, q.currency);
      return {
        data: withFields(presentCategory(node), { subcategories: node.children.map(presentCategory), products: r.items.map(presentCategoryRecord) }),
        meta: { limit: q.limit, offset: q.offset, total: r.total, response_time_ms: took(reply) },
      };
    });
  };
}
