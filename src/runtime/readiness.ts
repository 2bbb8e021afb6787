/**
 * Whether the service can answer yet. A server listens before its store is usable (recovering a
 * killed import, loading the demo catalog); until then /health is 503 with the reason and the API
 * answers 503 with Retry-After.
 */
export class Readiness {
  private reason: string | null = null;

  get ready(): boolean {
    return this.reason === null;
  }

  /** Why the service is not ready (null when it is). */
  get notReadyBecause(): string | null {
    return this.reason;
  }

  starting(reason: string): void {
    this.reason = reason;
  }

  isReady(): void {
    this.reason = null;
  }
}
