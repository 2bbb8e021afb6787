import type { AgentItem, BestValue } from '../../catalog/agent-service.js';
import type { Diff, ViewHighlights } from '../../catalog/compare-service.js';
import type { ListingView } from '../../catalog/listing-views.js';
import { decimalsOf } from '../../domain/currencies.js';
import { DIFF_FIELD_NAMES, type DiffFieldName, type RecordField } from './agent-fields.js';
import { presentBatchRecord, stockLevelV2 } from './present.js';

/** Presenters of the V2 agent endpoints: pure functions from views to agent records and summaries. */

/** What an agent record adds besides the fields every one has (agent search's include_* switches, batch-lookup's options). */
export interface AgentIncludes {
  insights?: boolean;
  availability?: boolean;
  competitors?: boolean;
  metadata?: boolean;
  /** false: affiliate_url null (batch-lookup affiliate_links=false). */
  affiliate?: boolean;
}

const shown = (v: ListingView) => v.converted ?? { amount: v.listing.price, currency: v.listing.currency };
const rating = (v: ListingView) => (v.listing.rating === null ? null : Number(v.listing.rating));

/**
 * The agent record (spec 2.2): the batch record and the decision signals (domain/decision-signals.ts),
 * each null where its rule cannot derive it; price_history when the item carries it.
 */
export function presentAgentRecord(item: AgentItem, inc: AgentIncludes = {}) {
  const { view: v, signals: s } = item;
  // Filled in place, not spread: an object spread from a spread with optional members ends up a
  // dictionary-mode object, some 30 times slower to build (and slower to serialize).
  const r = Object.assign(presentBatchRecord(v, { metadata: inc.metadata ?? false, affiliate: inc.affiliate }), {
    data_freshness: s.dataFreshness.checkedAt,
    confidence_score: s.confidenceScore,
    price_trend: s.priceTrend,
    buybox_price: s.buyboxPrice,
    buybox_confidence: s.buyboxConfidence,
    price_change_percentage: s.priceChangePercentage,
    demand_score: s.demandScore,
    seasonal_factor: s.seasonalFactor,
  }) as ReturnType<typeof presentBatchRecord> & AgentFields;
  if (inc.availability) r.availability_prediction = s.availabilityPrediction === 'unknown' ? null : s.availabilityPrediction;
  if (inc.competitors) r.competitor_count = s.competitorCount;
  if (inc.insights) r.agent_insights = presentInsights(item);
  if (item.history) r.price_history = item.history.map((p) => ({ price: p.price, currency: p.currency, observed_at: p.at }));
  return r;
}

/** What an agent record adds to the batch record (the optional members only when asked for). */
interface AgentFields {
  data_freshness: string | null;
  confidence_score: number;
  price_trend: AgentItem['signals']['priceTrend'];
  buybox_price: AgentItem['signals']['buyboxPrice'];
  buybox_confidence: AgentItem['signals']['buyboxConfidence'];
  price_change_percentage: AgentItem['signals']['priceChangePercentage'];
  demand_score: AgentItem['signals']['demandScore'];
  seasonal_factor: AgentItem['signals']['seasonalFactor'];
  availability_prediction?: Exclude<AgentItem['signals']['availabilityPrediction'], 'unknown'> | null;
  competitor_count?: AgentItem['signals']['competitorCount'];
  agent_insights?: ReturnType<typeof presentInsights>;
  price_history?: Array<{ price: string; currency: string; observed_at: string }>;
}

function presentInsights({ signals: { agentInsights: i } }: AgentItem) {
  return {
    buybox_winner: i.buyboxWinner, value_score: i.valueScore, recommendation_reason: i.recommendationReason,
    fake_discount: i.fakeDiscount, lowest_price_30d_before_discount: i.priorLow,
  };
}

/** Agent price comparison highlights (spec 2.5): each null when nothing qualifies. */
export function presentAgentHighlights(h: ViewHighlights) {
  return {
    cheapest: h.cheapest ? { id: h.cheapest.listing.id, source: h.cheapest.listing.source, price: shown(h.cheapest).amount, currency: shown(h.cheapest).currency } : null,
    best_rated: h.bestRated ? { id: h.bestRated.listing.id, source: h.bestRated.listing.source, rating: rating(h.bestRated)! } : null,
    fastest_shipping: h.fastestShipping ? { id: h.fastestShipping.listing.id, source: h.fastestShipping.listing.source, shipping_days: h.fastestShipping.listing.shippingDays! } : null,
  };
}

/** A listing's compared fields by their V2 names, as V2 records show them. */
function diffRow(v: ListingView): Record<DiffFieldName, unknown> {
  const l = v.listing;
  return {
    title: l.title, brand: l.brand, source: l.source, price: shown(v).amount, currency: shown(v).currency, price_sgd: l.priceSgd,
    category: l.category, rating: rating(v), review_count: l.reviewCount, in_stock: l.inStock, stock_level: stockLevelV2(v),
    shipping_days: l.shippingDays, barcode: l.gtin, region: l.region, specs: l.specs,
  };
}

/** The compare diff shape (spec 4.4 compare-matrix) over the fields asked, values as V2 records show them. */
export function presentMatrix(d: Diff, notFound: number[], fields: readonly DiffFieldName[] = DIFF_FIELD_NAMES) {
  const rows = d.products.map((p) => diffRow(p.view));
  const compared = fields.map((field) => {
    const values = rows.map((r) => r[field] ?? null);
    const first = JSON.stringify(values[0]);
    return { field, values, all_identical: values.every((x) => JSON.stringify(x) === first) };
  });
  return {
    products: d.products.map(({ view, priceRank }) => ({
      id: view.listing.id, title: view.listing.title, price: shown(view).amount, price_rank: priceRank, currency: shown(view).currency,
      rating: rating(view), review_count: view.listing.reviewCount, source: view.listing.source,
    })),
    field_diffs: compared.filter((f) => !f.all_identical),
    identical_fields: compared.filter((f) => f.all_identical).map((f) => f.field),
    cheapest_product_id: d.cheapestId,
    most_expensive_product_id: d.mostExpensiveId,
    price_spread: d.priceSpread.toFixed(decimalsOf(d.spreadCurrency)),
    price_spread_currency: d.spreadCurrency,
    price_spread_pct: d.priceSpreadPct,
    not_found: notFound,
  };
}

/** `id` and the chosen fields of an agent record (bulk-compare include_fields; all when none chosen). */
export function pickFields<R extends { id: number }>(record: R, fields: readonly RecordField[] | undefined): Partial<R> & { id: number } {
  if (!fields) return record;
  const out: Record<string, unknown> = { id: record.id };
  for (const f of fields) if (f in record) out[f] = (record as Record<string, unknown>)[f];
  return out as Partial<R> & { id: number };
}

/** bulk-compare's comparison_summary (spec 4.4): each null when nothing qualifies. */
export function presentBulkSummary(h: ViewHighlights, best: BestValue | null) {
  return {
    cheapest_product: h.cheapest
      ? { id: h.cheapest.listing.id, title: h.cheapest.listing.title, price: shown(h.cheapest).amount, currency: shown(h.cheapest).currency, source: h.cheapest.listing.source }
      : null,
    best_rated_product: h.bestRated
      ? { id: h.bestRated.listing.id, title: h.bestRated.listing.title, rating: rating(h.bestRated)!, source: h.bestRated.listing.source }
      : null,
    best_value_product: best
      ? { id: best.item.view.listing.id, title: best.item.view.listing.title, value_score: best.valueScore, reason: best.item.signals.agentInsights.recommendationReason }
      : null,
  };
}
