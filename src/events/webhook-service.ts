import { randomUUID } from 'node:crypto';
import {
  DEFAULT_MIN_PRICE_CHANGE_PCT, MAX_SUBSCRIPTIONS_PER_ACCOUNT, PAUSED_BY_OWNER, testPayload,
  type DeliveryStatus, type WebhookEventKind, type WebhookStatus,
} from '../domain/webhooks.js';
import type {
  EventLogStore, SubscriptionPatch, WebhookAttemptRecord, WebhookDeliveryRecord, WebhookStore, WebhookSubscriptionRecord,
} from '../store/types.js';
import { newDeliveryId } from './webhook-dispatcher.js';
import type { AddressGuard } from './webhook-guard.js';
import { newSecret, type SecretBox } from './webhook-secrets.js';
import type { WebhookWorker } from './webhook-worker.js';

/** A subscription as its owner sees it: never its secret. */
export type SubscriptionView = Omit<WebhookSubscriptionRecord, 'secret' | 'previousSecret' | 'accountId' | 'fromEventId'>;
export interface DeliveryView { delivery: WebhookDeliveryRecord; attempts: WebhookAttemptRecord[] }

export interface SubscriptionInput {
  url: string;
  events: WebhookEventKind[];
  productIds?: string[] | null;
  minPriceChangePct?: number;
}

export interface SubscriptionChange {
  url?: string;
  events?: WebhookEventKind[];
  /** Replaces both filters; a member left out takes its default. */
  filters?: { productIds?: string[] | null; minPriceChangePct?: number };
  status?: WebhookStatus;
}

/** A refusal the route answers: `field` names the body member at fault. */
export type Refusal =
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'limit'; max: number }
  | { ok: false; reason: 'invalid'; field: string; message: string }
  | { ok: false; reason: 'pending' };
export type Outcome<T> = { ok: true; value: T } | Refusal;

const NOT_FOUND = { ok: false, reason: 'not_found' } as const;
/** How long a rotated-out secret still signs, unless the caller says otherwise. */
export const PREVIOUS_SECRET_SECONDS = 24 * 3600;

export function viewOf(s: WebhookSubscriptionRecord): SubscriptionView {
  const { secret: _s, previousSecret: _p, accountId: _a, fromEventId: _f, ...view } = s;
  return view;
}

/**
 * The subscription use cases of the management endpoints (spec 4.5; listing, changing, deleting,
 * rotating, testing and the delivery log are ours, spec 4.6). Every call is scoped to the calling
 * account: another account's subscription is not found.
 */
export class WebhookService {
  readonly maxPerAccount = MAX_SUBSCRIPTIONS_PER_ACCOUNT;

  constructor(
    private readonly store: WebhookStore,
    private readonly log: EventLogStore,
    private readonly guard: AddressGuard,
    private readonly secrets: SecretBox,
    private readonly worker: WebhookWorker,
    private readonly now: () => Date,
  ) {}

  private async checkUrl(url: string): Promise<Refusal | null> {
    const checked = await this.guard.target(url);
    return checked.ok ? null : { ok: false, reason: 'invalid', field: 'url', message: checked.reason };
  }

  async create(accountId: number, input: SubscriptionInput): Promise<Outcome<{ subscription: SubscriptionView; secret: string }>> {
    const refused = await this.checkUrl(input.url);
    if (refused) return refused;
    const secret = newSecret();
    const at = this.now().toISOString();
    const rec: WebhookSubscriptionRecord = {
      id: randomUUID(), accountId, url: input.url, events: [...new Set(input.events)], productIds: dedupe(input.productIds),
      minPriceChangePct: input.minPriceChangePct ?? DEFAULT_MIN_PRICE_CHANGE_PCT, status: 'active', pausedReason: null,
      secret: this.secrets.seal(secret), previousSecret: null, previousSecretUntil: null,
      fromEventId: await this.log.lastId(), createdAt: at, updatedAt: at,
    };
    if (!(await this.store.createSubscription(rec, this.maxPerAccount))) return { ok: false, reason: 'limit', max: this.maxPerAccount };
    return { ok: true, value: { subscription: viewOf(rec), secret } };
  }

  async list(accountId: number): Promise<SubscriptionView[]> {
    return (await this.store.subscriptions(accountId)).map(viewOf);
  }

  async get(accountId: number, id: string): Promise<SubscriptionView | null> {
    const s = await this.store.subscription(accountId, id);
    return s ? viewOf(s) : null;
  }

  async update(accountId: number, id: string, change: SubscriptionChange): Promise<Outcome<SubscriptionView>> {
    if (!(await this.store.subscription(accountId, id))) return NOT_FOUND;
    if (change.url !== undefined) {
      const refused = await this.checkUrl(change.url);
      if (refused) return refused;
    }
    const patch: SubscriptionPatch = {
      url: change.url,
      events: change.events ? [...new Set(change.events)] : undefined,
      ...(change.filters ? { productIds: dedupe(change.filters.productIds), minPriceChangePct: change.filters.minPriceChangePct ?? DEFAULT_MIN_PRICE_CHANGE_PCT } : {}),
      ...(change.status ? { status: change.status, pausedReason: change.status === 'paused' ? PAUSED_BY_OWNER : null } : {}),
    };
    const s = await this.store.updateSubscription(accountId, id, patch, this.now().toISOString());
    return s ? { ok: true, value: viewOf(s) } : NOT_FOUND;
  }

  async remove(accountId: number, id: string): Promise<boolean> {
    return this.store.deleteSubscription(accountId, id);
  }

  /** A new secret, shown once; the old one also signs for `previousValidSeconds` (0: stops at once). */
  async rotateSecret(accountId: number, id: string, previousValidSeconds = PREVIOUS_SECRET_SECONDS):
    Promise<Outcome<{ subscription: SubscriptionView; secret: string; previousSecretUntil: string | null }>> {
    const s = await this.store.subscription(accountId, id);
    if (!s) return NOT_FOUND;
    const secret = newSecret();
    const until = previousValidSeconds > 0 ? new Date(this.now().getTime() + previousValidSeconds * 1000).toISOString() : null;
    const updated = await this.store.updateSubscription(accountId, id, {
      secret: this.secrets.seal(secret), previousSecret: until ? s.secret : null, previousSecretUntil: until,
    }, this.now().toISOString());
    if (!updated) return NOT_FOUND;
    return { ok: true, value: { subscription: viewOf(updated), secret, previousSecretUntil: until } };
  }

  /** Sends a signed `test` event now (also to a paused subscription) and answers with the attempt; it is in the delivery log too. */
  async test(accountId: number, id: string): Promise<Outcome<DeliveryView>> {
    const s = await this.store.subscription(accountId, id);
    if (!s) return NOT_FOUND;
    const now = this.now();
    const owner = `test:${randomUUID()}`;
    const delivery = await this.store.insertLeased(
      { id: newDeliveryId(), subscriptionId: s.id, eventId: null, kind: 'test', payload: testPayload(s.id, now.toISOString()), maxAttempts: 1 },
      { owner, until: new Date(now.getTime() + 60_000).toISOString() }, now.toISOString(),
    );
    await this.worker.attempt({ delivery, subscription: s }, owner);
    const after = await this.store.delivery(s.id, delivery.id);
    return { ok: true, value: { delivery: after ?? delivery, attempts: await this.store.attempts([delivery.id]) } };
  }

  async deliveries(accountId: number, id: string, opts: { status?: DeliveryStatus; limit: number; offset: number }):
    Promise<{ items: DeliveryView[]; total: number } | null> {
    if (!(await this.store.subscription(accountId, id))) return null;
    const page = await this.store.deliveries(id, opts);
    const attempts = await this.store.attempts(page.items.map((d) => d.id));
    const byDelivery = new Map<string, WebhookAttemptRecord[]>();
    for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
    return { items: page.items.map((d) => ({ delivery: d, attempts: byDelivery.get(d.id) ?? [] })), total: page.total };
  }

  /** Queues a finished delivery for one more attempt now (the same webhook-id and body). */
  async retry(accountId: number, id: string, deliveryId: string): Promise<Outcome<DeliveryView>> {
    if (!(await this.store.subscription(accountId, id))) return NOT_FOUND;
    const d = await this.store.retry(id, deliveryId, this.now().toISOString());
    if (!d) return (await this.store.delivery(id, deliveryId)) ? { ok: false, reason: 'pending' } : NOT_FOUND;
    void this.worker.pump();
    return { ok: true, value: { delivery: d, attempts: await this.store.attempts([d.id]) } };
  }
}

function dedupe(ids: string[] | null | undefined): string[] | null {
  return ids?.length ? [...new Set(ids.map((i) => i.toLowerCase()))] : null;
}
