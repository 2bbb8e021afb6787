import autocannon from 'autocannon';

export interface SoakRequest { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> }

/** One group of endpoints, loaded by its own connections for the whole soak. */
export interface TrafficGroup {
  name: string;
  connections: number;
  request: (i: number) => SoakRequest;
}

/** Counts of one group: over the whole run and over the current report window. */
export class GroupStats {
  total = 0;
  ok = 0;
  s4xx = 0;
  s5xx = 0;
  /** Connection errors and timeouts: the server did not answer at all. */
  connErrors = 0;
  readonly codes = new Map<number, number>();
  readonly latencies: number[] = [];
  window = { total: 0, s5xx: 0, connErrors: 0, latencies: [] as number[] };

  constructor(readonly name: string) {}

  record(status: number, ms: number): void {
    this.total++;
    this.window.total++;
    this.codes.set(status, (this.codes.get(status) ?? 0) + 1);
    if (status >= 500) {
      this.s5xx++;
      this.window.s5xx++;
    } else if (status >= 400) this.s4xx++;
    else this.ok++;
    this.latencies.push(ms);
    this.window.latencies.push(ms);
  }

  failed(): void {
    this.connErrors++;
    this.window.connErrors++;
  }

  /** The window's figures, and a new window. */
  takeWindow(): { total: number; s5xx: number; connErrors: number; p99: number } {
    const w = this.window;
    this.window = { total: 0, s5xx: 0, connErrors: 0, latencies: [] };
    return { total: w.total, s5xx: w.s5xx, connErrors: w.connErrors, p99: quantile(w.latencies, 0.99) };
  }
}

export function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Loads `group` against `base` for `seconds`, every answer and failure counted in `stats`. */
export function runGroup(base: string, headers: Record<string, string>, group: TrafficGroup, seconds: number, stats: GroupStats): Promise<void> {
  let i = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: base, connections: group.connections, duration: seconds, headers, timeout: 10,
      requests: [{
        setupRequest: (req) => {
          const r = group.request(i++);
          return { ...req, method: r.method, path: r.path, body: r.body, headers: { ...req.headers, ...(r.body ? { 'content-type': 'application/json' } : {}), ...r.headers } };
        },
      }],
    }, (err) => (err ? reject(err) : resolve()));
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => stats.record(status, ms));
    instance.on('reqError', () => stats.failed());
  });
}
