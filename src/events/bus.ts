/**
 * Notifications between the instances of one deployment. The data itself lives in the store (the
 * event log, the keys table); a message only says "look now": events were appended, a key was
 * revoked, cached answers are stale. Losing one costs a delay (the event tail still polls), never data.
 */
export type BusMessage =
  | { type: 'events' }
  | { type: 'key_revoked'; keyId: number }
  | { type: 'invalidate' };

export type BusListener = (message: BusMessage) => void;

export interface EventBus {
  /** Delivered to the listeners of every other instance; never back to this one. */
  publish(message: BusMessage): Promise<void>;
  subscribe(fn: BusListener): () => void;
  close(): Promise<void>;
}

/** One process: nobody else to tell. */
export class MemoryBus implements EventBus {
  async publish(): Promise<void> {}
  subscribe(): () => void {
    return () => undefined;
  }
  async close(): Promise<void> {}
}
