import type { CatalogEvent } from '../domain/events.js';
import type { EventLogStore } from '../store/types.js';

export type EventListener = (events: CatalogEvent[]) => void;

/**
 * Follows the event log: every process sees what any other wrote (a CLI import, another
 * instance). On the embedded store it is a cheap poll of the newest id; a wake-up (Redis,
 * LISTEN/NOTIFY) can call `poke()` to read at once.
 */
export class EventTail {
  private last = 0;
  private timer: NodeJS.Timeout | null = null;
  private reading = false;
  /** Before start() the position is unknown: a poke would replay the whole log, so it waits. */
  private started = false;
  /** A poke that came during a read: read once more after it, or the wake-up would wait for the next tick. */
  private again = false;
  private readonly listeners = new Set<EventListener>();
  private readonly unloggedListeners = new Set<() => void>();
  private unlogged: number | null = null;

  constructor(private readonly log: EventLogStore, private readonly intervalMs = 500, private readonly batch = 1000) {}

  private starting: Promise<void> | null = null;

  /** Starts following from the log's newest event; a second call waits for the first (streams call it too). */
  start(): Promise<void> {
    this.starting ??= (async () => {
      this.last = await this.log.lastId();
      this.unlogged = (await this.log.unloggedChanges?.()) ?? null;
      this.started = true;
      this.timer = setInterval(() => void this.poke(), this.intervalMs);
      this.timer.unref();
    })().catch((e: unknown) => {
      this.starting = null;
      throw e;
    });
    return this.starting;
  }

  position(): number {
    return this.last;
  }

  subscribe(fn: EventListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Called when the catalog changed without an event (see EventLogStore.unloggedChanges). */
  onUnloggedChange(fn: () => void): () => void {
    this.unloggedListeners.add(fn);
    return () => this.unloggedListeners.delete(fn);
  }

  async poke(): Promise<void> {
    if (!this.started) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      for (;;) {
        const events = await this.log.readAfter(this.last, this.batch);
        if (!events.length) break;
        this.last = events[events.length - 1].id;
        for (const fn of this.listeners) fn(events);
        if (events.length < this.batch) break;
      }
      const unlogged = (await this.log.unloggedChanges?.()) ?? null;
      if (unlogged !== this.unlogged) {
        this.unlogged = unlogged;
        for (const fn of this.unloggedListeners) fn();
      }
    } catch {
      // The store is unreachable for a moment; the next tick tries again from the same position.
    } finally {
      this.reading = false;
      if (this.again) {
        this.again = false;
        void this.poke();
      }
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
