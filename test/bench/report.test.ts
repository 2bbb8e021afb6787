import { describe, expect, it } from 'vitest';
import { renderGrowth, renderResult, type BenchResult, type Row } from '../../bench/report.js';

const ceiling = (rps: number): Row => ({ name: 'ceiling', rps, p50: 1, p99: 3, errors: 0 });

function result(listings: number, rssMb: number, rows: Row[]): BenchResult {
  return {
    at: '2026-12-01T00:00:00.000Z', commit: `c${listings}`, store: 'sqlite', listings, connections: 32, durationS: 10,
    pinned: { service: '1', load: '0' }, ceilings: [ceiling(20_000), ceiling(30_000)], rows,
    import: { seconds: listings / 10_000, storedSeconds: listings / 25_000 }, reimport: null, serverPeakRssMb: rssMb,
  };
}

describe('bench report', () => {
  it('lays results of several sizes side by side, smallest first, with the memory each listing adds', () => {
    const small = result(100_000, 500, [
      { name: 'id detail (2,000 ids)', rps: 15_000, p50: 1, p99: 4, errors: 0, neighbours: [20_000, 30_000] },
    ]);
    small.import!.steps = ['bulk load into an empty store: 100000 lines read in 3.5 s; building read indexes, then matching...',
      'read indexes built in 0.5 s; matched 100000 listings in 5.0 s; match indexes built in 0.6 s'];
    const large = result(3_000_000, 1_450, [
      { name: 'id detail (2,000 ids)', rps: 12_500, p50: 1, p99: 5, errors: 0, neighbours: [25_000, 25_000], bytes: 1_530 },
      { name: '  search, 1 connection', rps: 3_000.4, p50: 0.3, p99: 2.5, errors: 0 },
    ]);
    const table = renderGrowth([large, small]).split('\n');
    expect(table).toContain('|  | 100,000 | 3,000,000 |');
    expect(table).toContain('| id detail (2,000 ids) | 15,000, 4, 60.0% | 12,500, 5, 50.0%, 1,530 B |');
    // A row one run lacks is left empty there; a row with no ceiling beside it has no share.
    expect(table).toContain('| search, 1 connection |  | 3,000, 2.5 |');
    expect(table).toContain('| import: stored, done (µs a line end to end) | 4 s, 10.0 s (100) | 120 s, 300.0 s (100) |');
    expect(table).toContain('| server peak RSS | 500 MB | 1,450 MB |');
    // The matching's own time, from the import's report of its steps; a run without them has none.
    expect(table).toContain('| bulk load: matched (µs a listing) | 5.0 s (50) |  |');
    // (1,450 - 500) MB over 2,900,000 listings.
    expect(table.at(-1)).toBe('server RSS growth: 100,000 to 3,000,000: 0.34 KB a listing');
  });

  it('says when a bulk load ended early', () => {
    const r = result(100_000, 500, []);
    r.import!.steps = ['read indexes built in 0.5 s; matched 100000 listings in 9.0 s; match indexes built in 0.6 s',
      'the bulk load ended early (its memory neared the heap limit): 60000 listings were matched from memory, the rest against the store'];
    expect(renderGrowth([r])).toContain('| bulk load: matched (µs a listing) | 9.0 s (90), ended early |');
    expect(renderResult(r)).toContain('\n  the bulk load ended early (its memory neared the heap limit)');
  });

  it('warns of a share above a neighbouring ceiling', () => {
    const r = result(100_000, 500, [{ name: 'too fast', rps: 25_000, p50: 1, p99: 2, errors: 0, neighbours: [20_000, 30_000] }]);
    expect(renderResult(r)).toContain('WARNING: above a neighbouring ceiling (not measured under the same conditions; see the spread): too fast');
  });
});
