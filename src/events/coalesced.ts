/**
 * Passes over the event log that never overlap: a call while a pass runs shares it and asks for one
 * more after it (what it came to look at may have been committed after that pass read the log).
 * Resolves to the sum of what the passes counted.
 */
export class CoalescedPasses {
  private running: Promise<number> | null = null;
  private again = false;

  constructor(private readonly pass: () => Promise<number>) {}

  run(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const passes = (async () => {
      let counted = 0;
      do {
        this.again = false;
        counted += await this.pass();
      } while (this.again);
      return counted;
    })();
    this.running = passes.finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
