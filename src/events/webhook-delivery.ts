import type { EventLogStore, WebhookStore } from '../store/types.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import type { AddressGuard } from './webhook-guard.js';
import type { SecretBox } from './webhook-secrets.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookWorker, type WebhookLog, type WorkerOptions } from './webhook-worker.js';

/** How often due deliveries (retries, other instances' queued work) are looked for without a wake-up. */
const POLL_MS = 500;
/** Finished deliveries (succeeded or dead) are kept this long for the delivery log, then deleted. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * The webhook runtime of one serving process: the dispatcher (event log -> outbox) and the worker
 * (outbox -> receivers). `serve` starts it; one-shot CLI commands never do (their events are in
 * the log and go out from the server). `wake()` is called by the event tail when events arrive.
 */
export class WebhookDelivery {
  readonly dispatcher: WebhookDispatcher;
  readonly worker: WebhookWorker;
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private started = false;

  constructor(
    private readonly store: WebhookStore,
    log: EventLogStore,
    guard: AddressGuard,
    secrets: SecretBox,
    private readonly now: () => Date,
    opts: WorkerOptions & { userAgent: string },
    private logger: WebhookLog | null = null,
  ) {
    this.dispatcher = new WebhookDispatcher(store, log, now);
    this.worker = new WebhookWorker(store, guard, new WebhookSender(opts.userAgent), secrets, now, opts, logger);
  }

  /** Where dispatch and delivery problems are reported (serve: the app's logger). */
  useLog(log: WebhookLog): void {
    this.logger = log;
    this.worker.useLog(log);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    this.wake();
  }

  /** Dispatches new events, then claims what is due. Errors (a store away for a moment) wait for the next tick. */
  wake(): void {
    if (!this.started) return;
    void this.dispatcher.dispatch().then(
      () => this.worker.pump(),
      (e: Error) => {
        this.logger?.error({ err: { message: e.message } }, 'webhook dispatch failed; retrying on the next tick');
        return this.worker.pump();
      },
    );
  }

  /** Everything due now, dispatched and attempted, waited for (tests, benchmarks); works without start(). */
  async drain(): Promise<void> {
    for (;;) {
      await this.dispatcher.dispatch();
      await this.worker.pump();
      if (!this.worker.busy) return;
      await this.worker.idle();
    }
  }

  async prune(): Promise<number> {
    try {
      return await this.store.prune(new Date(this.now().getTime() - DELIVERY_RETENTION_MS).toISOString());
    } catch {
      return 0;
    }
  }

  /** Stops dispatching and claiming; attempts in flight get `graceMs` to end (see WebhookWorker.stop). */
  async stop(graceMs = 5000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.timer = this.pruneTimer = null;
    this.started = false;
    await this.worker.stop(graceMs);
  }
}
