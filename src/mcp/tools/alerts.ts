import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import type { AlertView } from '../../catalog/alert-service.js';
import { CONDITION_TYPES } from '../../domain/alert-condition.js';
import { dropThreshold, MAX_QUIET_PERIOD_SECONDS, MIN_QUIET_PERIOD_SECONDS } from '../../domain/alerts.js';
import { conditionJson } from '../../domain/event-codec.js';
import { TIERS, type Tier } from '../../domain/tier.js';
import { CALLER_ACCOUNT_HEADER, CALLER_TIER_HEADER, guarded, ok, ToolRefusal } from '../results.js';
import { CurrencyArg, IntArg } from '../schemas.js';
import type { McpOptions, McpServices } from '../services.js';
import { READ_ONLY } from './annotations.js';
import { withFields } from '../../domain/with-fields.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const CreateArgs = z.object({
  product: z.string().trim().min(1, 'product must not be empty').max(2048, 'product must be at most 2048 characters')
    .describe('the listing: integer id (from search_products), UUID, SKU, barcode (GTIN) or product URL'),
  condition: z.object({
    type: z.enum(CONDITION_TYPES as [string, ...string[]], { error: `condition.type must be one of ${CONDITION_TYPES.join(', ')}` })
      .describe('price_at_or_below (needs target and currency), drop_percent (needs percent) or back_in_stock'),
    target: z.string().max(32).optional().describe('price_at_or_below: the amount as exact decimal text, e.g. "199.00"'),
    currency: CurrencyArg.optional().describe('price_at_or_below: the currency of target; another currency than the listing\'s is converted at the catalog\'s rates'),
    percent: z.number().gt(0, 'percent must be above 0').lt(100, 'percent must be below 100').optional()
      .describe('drop_percent: the least drop from the price now, in percent'),
  }).strict().describe('what to watch for'),
  rearm: z.object({
    after: z.literal('price_above_target').optional().describe('fire again after the price went back above the target'),
    quiet_period_seconds: z.number().int().min(MIN_QUIET_PERIOD_SECONDS).max(MAX_QUIET_PERIOD_SECONDS).optional()
      .describe(`fire again on a matching change this many seconds after the last firing (${MIN_QUIET_PERIOD_SECONDS} or more)`),
  }).strict().optional().describe('exactly one member; omit it to fire once'),
  expires_at: z.string().max(40).optional().describe('ISO 8601 date-time after which the alert never fires'),
}).strict();

const ListArgs = z.object({
  limit: IntArg('limit', 1, 100, 20, 'alerts to return, newest first'),
  offset: IntArg('offset', 0, 10000, 0, 'alerts to skip'),
}).strict();

const AlertOut = z.object({
  id: z.string(),
  product: z.object({ id: z.number().int(), title: z.string().nullable() }),
  condition: z.record(z.string(), z.string()),
  rearm: z.object({ after: z.string().optional(), quiet_period_seconds: z.number().int().optional() }).nullable(),
  expires_at: z.string().nullable(),
  status: z.enum(['armed', 'rearming', 'fired', 'expired']),
  fire_count: z.number().int(),
  last_fired_at: z.string().nullable(),
  created_at: z.string(),
});
const ListOut = z.object({ alerts: z.array(AlertOut), total: z.number().int(), active: z.number().int(), max_active: z.number().int() });

function present({ alert: a, listing, status }: AlertView): z.infer<typeof AlertOut> {
  const c = a.condition;
  const condition = withFields(conditionJson(c), c.type === 'drop_percent' ? { threshold: dropThreshold(c) } : {}) as Record<string, string>;
  return {
    id: a.id, product: { id: a.listingId, title: listing?.title ?? null }, condition,
    rearm: a.rearm === null ? null : 'after' in a.rearm ? { after: a.rearm.after } : { quiet_period_seconds: a.rearm.quietPeriodSeconds },
    expires_at: a.expiresAt, status, fire_count: a.fireCount, last_fired_at: a.lastFiredAt, created_at: a.createdAt,
  };
}

const line = (a: z.infer<typeof AlertOut>) =>
  `${a.id} [${a.status}] #${a.product.id} ${a.product.title ?? ''}: ${Object.values(a.condition).join(' ')}${a.fire_count ? `, fired ${a.fire_count}x` : ''}`;

/** The calling key's account and tier (mcp/http.ts sets them from the authenticated request); a refusal where alerts are not open to it. */
function callerOf(s: McpServices, extra: Extra | undefined): { accountId: number; tier: Tier } {
  const h = extra?.requestInfo?.headers ?? {};
  const account = Number(h[CALLER_ACCOUNT_HEADER]);
  const tier = h[CALLER_TIER_HEADER] as Tier;
  if (!Number.isInteger(account) || !TIERS.includes(tier)) throw new ToolRefusal('Alerts belong to an API key: call this server over HTTP with a key.');
  if (s.alerts.limitFor(tier) === 0) throw new ToolRefusal(`Alerts need a verified key (free tier or above); this key is ${tier}.`);
  return { accountId: account, tier };
}

/** Alerts of the calling key (docs/alerts.md): set one, list them. Registered where a key is known (HTTP). */
export function registerAlertTools(server: McpServer, s: McpServices, opts: McpOptions): void {
  server.registerTool('create_alert', {
    title: 'Set a price or stock alert',
    description: 'Watch a listing for the shopper: fires when its price is at or below a target (any currency, converted), drops by a percent from now, '
      + 'or comes back in stock. Firings reach this key\'s event streams and webhooks as alert_fired; list_alerts shows them. Limited per tier.',
    inputSchema: CreateArgs, outputSchema: AlertOut,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false, title: 'Set a price or stock alert' },
  }, guarded('create_alert', async (a, extra) => {
    const { accountId, tier } = callerOf(s, extra);
    const r = await s.alerts.create(accountId, tier, { product: a.product, condition: a.condition, rearm: a.rearm ?? null, expiresAt: a.expires_at ?? null });
    if (!r.ok) {
      throw new ToolRefusal(r.reason === 'invalid'
        ? `${r.field.join('.')}: ${r.message}`
        : `This key's tier (${r.tier}) may have at most ${r.max} active alerts; delete one first (DELETE /v1/alerts/{id}).`);
    }
    const out = present(r.value);
    return ok(out, `Alert set: ${line(out)}`);
  }, opts.onError));

  server.registerTool('list_alerts', {
    title: 'This key\'s alerts',
    description: 'The alerts this key has set, newest first, with their status (armed, rearming, fired, expired) and how often each fired; '
      + 'also how many are active and the tier\'s maximum.',
    inputSchema: ListArgs, outputSchema: ListOut, annotations: withFields(READ_ONLY, { title: 'This key\'s alerts' }),
  }, guarded('list_alerts', async (a, extra) => {
    const { accountId, tier } = callerOf(s, extra);
    const page = await s.alerts.list(accountId, { limit: a.limit, offset: a.offset });
    const alerts = page.items.map(present);
    return ok(
      { alerts, total: page.total, active: page.active, max_active: s.alerts.limitFor(tier) },
      alerts.length ? `${page.total} alert(s), ${page.active} active of ${s.alerts.limitFor(tier)}:\n${alerts.map(line).join('\n')}` : 'No alerts yet; create_alert sets one.',
    );
  }, opts.onError));
}
