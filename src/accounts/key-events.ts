/**
 * In-process notifications about keys. The stream hub subscribes so a rotated (revoked) key's open
 * streams close at once. With many instances the scale-out bus republishes these; a listener
 * must not assume it runs on the instance that revoked the key.
 */
export type Unsubscribe = () => void;

export class KeyEvents {
  private readonly revoked = new Map<number, Set<() => void>>();
  private readonly anyRevoked = new Set<(keyId: number) => void>();
  private readonly anyChanged = new Set<(keyId: number) => void>();

  /** `fn` runs once when `keyId` is revoked; call the returned function when the stream ends first. */
  onRevoked(keyId: number, fn: () => void): Unsubscribe {
    let set = this.revoked.get(keyId);
    if (!set) this.revoked.set(keyId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (!set.size) this.revoked.delete(keyId);
    };
  }

  /** Every revocation (for a bus that forwards them to other instances). */
  onAnyRevoked(fn: (keyId: number) => void): Unsubscribe {
    this.anyRevoked.add(fn);
    return () => void this.anyRevoked.delete(fn);
  }

  /** Every change to a key that decides how a request with it is answered: revocation, tier, verification. */
  onAnyChanged(fn: (keyId: number) => void): Unsubscribe {
    this.anyChanged.add(fn);
    return () => void this.anyChanged.delete(fn);
  }

  emitRevoked(keyId: number): void {
    const set = this.revoked.get(keyId);
    this.revoked.delete(keyId);
    // Caches first: a stream's close handler must not find the revoked key still accepted.
    for (const fn of this.anyChanged) fn(keyId);
    for (const fn of set ?? []) fn();
    for (const fn of this.anyRevoked) fn(keyId);
  }

  /** A change other than revocation (tier, verification); in this process only. */
  emitChanged(keyId: number): void {
    for (const fn of this.anyChanged) fn(keyId);
  }

  listeners(keyId: number): number {
    return this.revoked.get(keyId)?.size ?? 0;
  }
}
