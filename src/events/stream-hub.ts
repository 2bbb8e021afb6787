import type { CatalogEvent, EventKind } from '../domain/events.js';
import type { EventLogStore } from '../store/types.js';
import { sseMessage, sseRetry } from './sse-text.js';
import type { EventTail } from './tail.js';

/** Why a stream ended; every reason but `client` is told to the client in a `close` event first (slow readers are cut). */
export type CloseReason = 'client' | 'idle' | 'key_revoked' | 'slow_reader' | 'shutdown' | 'unavailable';

/** Where a stream's text goes: an HTTP response in the API layer, anything in a test. */
export interface StreamSink {
  write(text: string): void;
  /** Bytes written and not yet taken by the network. */
  buffered(): number;
  /** Resolves once the buffer has drained, or the client went away. */
  drained(): Promise<void>;
  /** Ends the response after what is buffered. */
  end(): void;
  /** Drops the connection and what is buffered for it. */
  destroy(): void;
  /** `fn` runs once when the connection closes, whoever closed it. */
  onClose(fn: () => void): void;
}

export interface StreamSpec {
  /** The stream's name, said in its `ready` event. */
  name: string;
  keyId: number;
  /** The event kinds the stream may send: the replay reads only these. */
  kinds: readonly EventKind[];
  /** The client's Last-Event-ID: resume after it; null for a fresh stream (from now on). */
  lastEventId: number | null;
  accepts(e: CatalogEvent): boolean;
  /** When the stream accepts events of these listings only: the hub then offers it no other (accepts still decides). */
  listingIds?: ReadonlySet<number>;
  /** The message of an accepted event. Streams with the same `frame` function share its text for one event. */
  frame(e: CatalogEvent): string;
  sink: StreamSink;
  /** More members of the `ready` event. */
  info?: Record<string, unknown>;
  /** Runs once when the stream ends (its slot is freed here). */
  onClose(reason: CloseReason): void;
}

export interface StreamHubOptions {
  heartbeatMs: number;
  /** A stream that sent no event for this long is closed (heartbeats do not count). */
  idleMs: number;
  /** Resume reaches back at most this many event ids behind the newest (and never before the oldest kept). */
  replayWindow: number;
  /** A client with more than this unread when more is to be written is dropped: it resumes by Last-Event-ID. */
  maxBufferBytes: number;
  /** The `retry:` hint, drawn per stream so reconnections after a restart spread out. */
  retryMs: () => number;
  now: () => Date;
  /** Whether a key may still stream; asked every heartbeat for each key with open streams. */
  keyStillValid?: (keyId: number) => Promise<boolean>;
  replayBatch?: number;
}

interface Connection {
  spec: StreamSpec;
  kinds: ReadonlySet<EventKind>;
  /** The last event id this stream has gone past: sent, or skipped as not matching. */
  cursor: number;
  live: boolean;
  closed: boolean;
  heartbeat: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
}

/** Past this many buffered bytes a replay waits for the client to read before it reads on. */
const REPLAY_HIGH_WATER = 64 * 1024;

/**
 * Every open event stream of this process. Live events come from the event tail (one
 * subscription for all streams); a resuming stream first replays the log after its
 * Last-Event-ID and turns live only once it has read past the tail's position, so no event is
 * sent twice or skipped at the seam (ids increase in commit order). A stream's buffer is capped:
 * a reader that falls behind is dropped, never buffered without bound.
 */
export class StreamHub {
  private readonly open = new Set<Connection>();
  private readonly byKey = new Map<number, Set<Connection>>();
  /** Streams that watch given listings, by listing; every other stream is offered every event. */
  private readonly byListing = new Map<number, Set<Connection>>();
  private readonly unlisted = new Set<Connection>();
  private readonly keyCheck: NodeJS.Timeout | null = null;
  private readonly batch: number;

  constructor(private readonly log: EventLogStore, private readonly tail: EventTail, private readonly o: StreamHubOptions) {
    this.batch = o.replayBatch ?? 1000;
    tail.subscribe((events) => this.dispatch(events));
    if (o.keyStillValid) {
      this.keyCheck = setInterval(() => void this.checkKeys(), o.heartbeatMs);
      this.keyCheck.unref();
    }
  }

  /** Open streams, of one key or of all. */
  count(keyId?: number): number {
    return keyId === undefined ? this.open.size : (this.byKey.get(keyId)?.size ?? 0);
  }

  /** Starts a stream on its sink; resolves once it is live (or closed). */
  async start(spec: StreamSpec): Promise<void> {
    const conn: Connection = { spec, kinds: new Set(spec.kinds), cursor: 0, live: false, closed: false, heartbeat: null, idle: null };
    this.open.add(conn);
    let keyed = this.byKey.get(spec.keyId);
    if (!keyed) this.byKey.set(spec.keyId, (keyed = new Set()));
    keyed.add(conn);
    if (!spec.listingIds) this.unlisted.add(conn);
    else {
      for (const id of spec.listingIds) {
        let watchers = this.byListing.get(id);
        if (!watchers) this.byListing.set(id, (watchers = new Set()));
        watchers.add(conn);
      }
    }
    spec.sink.onClose(() => this.close(conn, 'client'));
    spec.sink.write(sseRetry(this.o.retryMs()));
    conn.heartbeat = setInterval(() => this.heartbeat(conn), this.o.heartbeatMs);
    conn.heartbeat.unref();
    conn.idle = setTimeout(() => this.close(conn, 'idle'), this.o.idleMs);
    conn.idle.unref();
    try {
      await this.tail.start();
      if (spec.lastEventId === null) {
        conn.cursor = this.tail.position();
        this.goLive(conn, { resumed: false, replayed: 0 });
      } else {
        await this.resume(conn, spec.lastEventId);
      }
    } catch {
      // The store is unreachable: the client reconnects with its Last-Event-ID and loses nothing.
      this.close(conn, 'unavailable');
    }
  }

  /** Closes every stream of a key (it was rotated or revoked, here or on another instance). */
  closeKey(keyId: number): void {
    for (const conn of [...(this.byKey.get(keyId) ?? [])]) this.close(conn, 'key_revoked');
  }

  /** Closes every stream, telling each why (a shutdown). */
  closeAll(reason: CloseReason = 'shutdown'): void {
    for (const conn of [...this.open]) this.close(conn, reason);
  }

  stop(): void {
    if (this.keyCheck) clearInterval(this.keyCheck);
    this.closeAll('shutdown');
  }

  /** The replay: events after `after` that the stream accepts, read from the log, then live. */
  private async resume(conn: Connection, after: number): Promise<void> {
    const head = await this.log.lastId();
    const oldest = (await this.log.readAfter(0, 1))[0]?.id ?? head + 1;
    const floor = Math.max(oldest, head - this.o.replayWindow + 1);
    let replayed = 0;
    if (after > head || after < floor - 1) {
      // Never skip in silence: the client learns which events it cannot have, and from where it goes on.
      const tooOld = after <= head;
      conn.cursor = tooOld ? floor - 1 : head;
      this.write(conn, sseMessage(conn.cursor, 'reset', {
        reason: tooOld ? 'too_old' : 'unknown_id', last_event_id: after, oldest_event_id: floor, newest_event_id: head,
        message: tooOld
          ? `Events after ${after} up to ${floor - 1} are past the replay window; the stream resumes from ${floor}. Re-read what you track.`
          : `Event ${after} is not in this log (newer than its newest, ${head}); the stream goes on from now. Re-read what you track.`,
      }));
    } else {
      conn.cursor = after;
    }
    for (;;) {
      const seenHead = await this.log.lastId();
      const events = await this.log.readAfter(conn.cursor, this.batch, [...conn.spec.kinds]);
      if (conn.closed) return;
      let text = '';
      for (const e of events) {
        if (!conn.spec.accepts(e)) continue;
        text += conn.spec.frame(e);
        replayed++;
      }
      if (events.length) conn.cursor = events[events.length - 1].id;
      if (text) {
        this.write(conn, text);
        this.touched(conn);
      }
      if (conn.closed) return;
      if (events.length < this.batch) {
        // Every event of the stream's kinds up to `seenHead` has been read. The seam: once past the
        // tail's position, every later event comes from the tail (synchronously from here, no await).
        conn.cursor = Math.max(conn.cursor, seenHead);
        if (conn.cursor >= this.tail.position()) break;
      }
      if (conn.spec.sink.buffered() > REPLAY_HIGH_WATER) await conn.spec.sink.drained();
      if (conn.closed) return;
    }
    this.goLive(conn, { resumed: true, replayed });
  }

  private goLive(conn: Connection, how: { resumed: boolean; replayed: number }): void {
    conn.live = true;
    this.write(conn, sseMessage(conn.cursor, 'ready', {
      stream: conn.spec.name, last_event_id: conn.cursor, ...how,
      heartbeat_ms: this.o.heartbeatMs, idle_timeout_ms: this.o.idleMs, replay_window_events: this.o.replayWindow,
      ...conn.spec.info,
    }));
  }

  /**
   * A batch from the tail, to every live stream: one write per stream, each event framed once. An
   * event is offered only to the streams that watch its listing and those that watch no listing in
   * particular, so a thousand streams of ten listings each cost ten checks per event, not a thousand.
   */
  private dispatch(events: CatalogEvent[]): void {
    if (!this.open.size) return;
    const framed = new Map<StreamSpec['frame'], Map<CatalogEvent, string>>();
    const texts = new Map<Connection, string>();
    const offer = (conn: Connection, e: CatalogEvent) => {
      if (!conn.live || conn.closed || e.id <= conn.cursor || !conn.kinds.has(e.change.kind) || !conn.spec.accepts(e)) return;
      let cache = framed.get(conn.spec.frame);
      if (!cache) framed.set(conn.spec.frame, (cache = new Map()));
      let text = cache.get(e);
      if (text === undefined) cache.set(e, (text = conn.spec.frame(e)));
      texts.set(conn, (texts.get(conn) ?? '') + text);
    };
    for (const e of events) {
      // An alert firing is for its owner's streams whatever listings they watch (accepts picks the owner's).
      if (e.change.kind === 'alert_fired') {
        for (const conn of this.open) offer(conn, e);
        continue;
      }
      for (const conn of this.unlisted) offer(conn, e);
      const watchers = this.byListing.get(e.listingId);
      if (watchers) for (const conn of watchers) offer(conn, e);
    }
    const last = events[events.length - 1].id;
    for (const conn of this.open) {
      if (!conn.live || conn.closed || last <= conn.cursor) continue;
      conn.cursor = last;
      const text = texts.get(conn);
      if (text) {
        this.write(conn, text);
        this.touched(conn);
      }
    }
  }

  /**
   * Writes, unless the client still has more than the cap unread from before: then it is dropped.
   * So a stream holds at most the cap plus one batch of the tail (1000 events) in memory.
   */
  private write(conn: Connection, text: string): void {
    if (conn.closed) return;
    if (conn.spec.sink.buffered() > this.o.maxBufferBytes) {
      this.close(conn, 'slow_reader');
      return;
    }
    conn.spec.sink.write(text);
  }

  private touched(conn: Connection): void {
    conn.idle?.refresh();
  }

  private heartbeat(conn: Connection): void {
    // The id is the stream's position: a client that resumes from it skips what did not match.
    this.write(conn, sseMessage(conn.cursor, 'heartbeat', { time: this.o.now().toISOString() }));
  }

  private checking = false;

  private async checkKeys(): Promise<void> {
    if (this.checking) return; // a slow store: the last check is still on its way
    this.checking = true;
    try {
      await this.checkEach();
    } finally {
      this.checking = false;
    }
  }

  private async checkEach(): Promise<void> {
    for (const keyId of [...this.byKey.keys()]) {
      let valid = true;
      try {
        valid = await this.o.keyStillValid!(keyId);
      } catch {
        // The store is unreachable: keep the streams; the next check asks again.
      }
      if (!valid) this.closeKey(keyId);
    }
  }

  private close(conn: Connection, reason: CloseReason): void {
    if (conn.closed) return;
    if (reason !== 'client' && reason !== 'slow_reader') {
      conn.spec.sink.write(sseMessage(conn.cursor, 'close', { reason }));
    }
    conn.closed = true;
    if (conn.heartbeat) clearInterval(conn.heartbeat);
    if (conn.idle) clearTimeout(conn.idle);
    this.open.delete(conn);
    const keyed = this.byKey.get(conn.spec.keyId);
    keyed?.delete(conn);
    if (keyed && !keyed.size) this.byKey.delete(conn.spec.keyId);
    this.unlisted.delete(conn);
    for (const id of conn.spec.listingIds ?? []) {
      const watchers = this.byListing.get(id);
      watchers?.delete(conn);
      if (watchers && !watchers.size) this.byListing.delete(id);
    }
    if (reason === 'slow_reader') conn.spec.sink.destroy();
    else conn.spec.sink.end();
    conn.spec.onClose(reason);
  }
}
