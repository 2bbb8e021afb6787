import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { decideAttempt } from '../domain/webhooks.js';
import type { ClaimedDelivery, WebhookAttemptRecord, WebhookStore, WebhookSubscriptionRecord } from '../store/types.js';
import type { AddressGuard } from './webhook-guard.js';
import { signedHeaders, type SecretBox } from './webhook-secrets.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import { withFields } from '../domain/with-fields.js';

/** What the worker says about itself; never a secret, a payload or a receiver's answer. */
export interface WebhookLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WorkerOptions {
  timeoutMs: number;
  retryBaseMs: number;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Attempts in flight at once to one subscription in this process: a slow receiver cannot hold every slot. */
  perSubscription: number;
  random?: () => number;
}

/** A lease lasts twice the attempt's timeout and this much more: a live worker always records before its lease ends. */
const LEASE_MARGIN_MS = 5000;
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + LEASE_MARGIN_MS;

/** Slots that must be free before a finished attempt claims more. */
const CLAIM_BATCH = 4;

const iso = (d: Date) => d.toISOString();
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

/** The error column: the code, then what happened. */
const errorText = (r: Pick<SendResult, 'error' | 'detail'>) => (r.error ? (r.detail ? `${r.error}: ${r.detail}` : r.error).slice(0, 300) : null);

/**
 * Sends queued deliveries: claims due ones with a lease (so with many workers each attempt happens
 * once), checks the url's addresses again, signs, sends and records the attempt with what it
 * decides (success, retry after a backoff, dead letter, 410 pauses the subscription). A worker
 * killed mid-attempt leaves its lease to expire; the delivery is then claimed again (at least
 * once). A stopping worker gives its leases back.
 */
export class WebhookWorker {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly inflight = new Map<Promise<void>, string>();
  private readonly perSub = new Map<string, number>();
  /**
   * A claim that left out busy subscriptions found nothing: until the next tick or wake-up, claims
   * that would leave out the same ones are not tried again (each would scan their queued rows).
   */
  private starvedWhileBusy = false;
  private claiming: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly store: WebhookStore,
    private readonly guard: AddressGuard,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly now: () => Date,
    private readonly opts: WorkerOptions,
    private log: WebhookLog | null = null,
  ) {}

  useLog(log: WebhookLog): void {
    this.log = log;
  }

  /**
   * Claims what is due while slots are free and starts sending it; resolves once claiming stops
   * (sends go on). `fresh`: called from a tick or a wake-up, not from a finished attempt.
   */
  pump(fresh = true): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (fresh) this.starvedWhileBusy = false;
    // After a finished attempt, claim once a few slots are free: one claim (a write) per batch, not per attempt.
    else if (this.opts.concurrency - this.inflight.size < Math.min(CLAIM_BATCH, this.opts.perSubscription) && this.inflight.size > 0) return Promise.resolve();
    if (this.claiming) {
      this.again = true;
      return this.claiming;
    }
    this.claiming = (async () => {
      do {
        this.again = false;
        await this.fill();
      } while (this.again && !this.stopped);
    })().catch((e: Error) => this.log?.error({ err: { message: e.message } }, 'webhook claim failed; retrying on the next tick'))
      .finally(() => {
        this.claiming = null;
      });
    return this.claiming;
  }

  /** Resolves when nothing is in flight. */
  async idle(): Promise<void> {
    while (this.inflight.size || this.claiming) await Promise.all([...this.inflight.keys(), this.claiming]);
  }

  get busy(): number {
    return this.inflight.size;
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.inflight.size < this.opts.concurrency) {
      const busy = [...this.perSub].filter(([, n]) => n >= this.opts.perSubscription).map(([id]) => id);
      if (busy.length && this.starvedWhileBusy) return;
      const now = this.now();
      const room = Math.min(this.opts.concurrency - this.inflight.size, this.opts.perSubscription);
      const claimed = await this.store.claim(this.owner, iso(plus(now, leaseMs(this.opts.timeoutMs))), iso(now), room, busy);
      for (const c of claimed) this.launch(c, this.owner);
      if (claimed.length < room) {
        if (busy.length) this.starvedWhileBusy = true;
        return;
      }
    }
  }

  private launch(c: ClaimedDelivery, owner: string): void {
    const sub = c.subscription.id;
    this.perSub.set(sub, (this.perSub.get(sub) ?? 0) + 1);
    const p: Promise<void> = this.attempt(c, owner)
      .then(() => undefined, (e: Error) => this.log?.error({ delivery: c.delivery.id, err: { message: e.message } }, 'webhook attempt could not be recorded'))
      .finally(() => {
        this.inflight.delete(p);
        const n = (this.perSub.get(sub) ?? 1) - 1;
        if (n > 0) this.perSub.set(sub, n);
        else this.perSub.delete(sub);
        if (!this.stopped) void this.pump(false);
      });
    this.inflight.set(p, c.delivery.id);
  }

  /**
   * One attempt of a delivery `owner` leases: the guard, the signature, the POST, the record.
   * Returns the attempt as recorded, or null when the lease was lost meanwhile.
   */
  async attempt(c: ClaimedDelivery, owner: string): Promise<WebhookAttemptRecord | null> {
    const { delivery: d, subscription: s } = c;
    const startedAt = this.now();
    const result = await this.send(s, d.id, d.payload);
    // Cut short by our own stop: not the receiver's doing, so not an attempt; the lease is given back.
    if (this.stopped && result.error === 'connection_closed') return null;
    const n = d.attempts + 1;
    const decision = decideAttempt(result, n, d.maxAttempts, this.opts.retryBaseMs, this.opts.random ?? Math.random);
    const ended = this.now();
    const attempt = { startedAt: iso(startedAt), durationMs: result.durationMs, statusCode: result.statusCode, error: errorText(result), excerpt: result.excerpt };
    const recorded = await this.store.record(d.id, owner, attempt, {
      status: decision.status, nextAttemptAt: decision.retryInMs === null ? null : iso(plus(ended, decision.retryInMs)), pause: decision.pause,
    }, iso(ended));
    if (!recorded) {
      this.log?.warn({ delivery: d.id, subscription: s.id }, 'webhook lease lost before the attempt was recorded; another worker will try again');
      return null;
    }
    if (decision.pause) this.log?.warn({ subscription: s.id, delivery: d.id }, 'webhook receiver answered 410 Gone; subscription paused');
    if (decision.status === 'dead' && !decision.pause) this.log?.warn({ subscription: s.id, delivery: d.id, attempts: n, error: result.error }, 'webhook delivery dead-lettered');
    return withFields(attempt, { deliveryId: d.id, attempt: n });
  }

  private async send(s: WebhookSubscriptionRecord, msgId: string, body: string): Promise<SendResult> {
    const t0 = performance.now();
    const failed = (error: string, detail: string): SendResult => ({ statusCode: null, error, detail, excerpt: null, durationMs: Math.round(performance.now() - t0) });
    const secret = this.secrets.open(s.secret);
    if (secret === null) {
      this.log?.error({ subscription: s.id }, 'webhook secret is sealed and WEBHOOK_SECRET_KEY cannot open it; not sent');
      return failed('secret_unavailable', 'the signing secret cannot be opened with the configured WEBHOOK_SECRET_KEY');
    }
    const secrets = [secret];
    if (s.previousSecret && s.previousSecretUntil && s.previousSecretUntil > iso(this.now())) {
      const previous = this.secrets.open(s.previousSecret);
      if (previous) secrets.push(previous);
    }
    const checked = await this.guard.target(s.url);
    if (!checked.ok) return failed(checked.code, checked.reason);
    let headers: Record<string, string>;
    try {
      // The signing time is the wall clock's: receivers compare it with theirs (standardwebhooks allows 5 minutes).
      headers = signedHeaders(secrets, msgId, new Date(), body);
    } catch {
      return failed('secret_unavailable', 'the stored signing secret is not a valid whsec_ secret');
    }
    return this.sender.send(checked.target, headers, body, this.opts.timeoutMs);
  }

  /** Stops claiming, lets attempts in flight end within `graceMs`, aborts the rest, and gives back this worker's leases. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => {
      timer = setTimeout(r, graceMs);
    });
    await Promise.race([this.idle(), late]);
    clearTimeout(timer);
    this.sender.close();
    await this.idle().catch(() => undefined);
    await this.store.release(this.owner).catch(() => 0);
  }
}
