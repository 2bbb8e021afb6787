/**
 * Concurrency slots: at most `max` holders of one key at a time (open event streams per API key).
 * Adapters: memory (one process, below) and `redis-slots.ts` (every instance of a deployment).
 */
export interface SlotLease {
  /** `shared`: counted with every instance; `local`: this process only (the shared count was unreachable). */
  readonly scope: 'shared' | 'local';
  /** Frees the slot; safe to call twice. */
  release(): void;
}

export interface ConcurrencySlots {
  /** A slot of `key`, or null when `max` are held. */
  acquire(key: string, max: number): Promise<SlotLease | null>;
  /** Slots of `key` held now. */
  held(key: string): Promise<number>;
  close(): Promise<void>;
}

export class MemorySlots implements ConcurrencySlots {
  private readonly counts = new Map<string, number>();

  async acquire(key: string, max: number): Promise<SlotLease | null> {
    return this.take(key, max);
  }

  /** Synchronous: a check and a take in one turn of the event loop. */
  take(key: string, max: number): SlotLease | null {
    const n = this.counts.get(key) ?? 0;
    if (n >= max) return null;
    this.counts.set(key, n + 1);
    let released = false;
    return {
      scope: 'local',
      release: () => {
        if (released) return;
        released = true;
        const left = (this.counts.get(key) ?? 1) - 1;
        if (left > 0) this.counts.set(key, left);
        else this.counts.delete(key);
      },
    };
  }

  async held(key: string): Promise<number> {
    return this.counts.get(key) ?? 0;
  }

  async close(): Promise<void> {}
}
