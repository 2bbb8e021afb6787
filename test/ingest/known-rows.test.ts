import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { KnownRows } from '../../src/catalog/known-rows.js';

/** A store's (source, sku) -> (id, line hash), with the statements KnownRows is given, counting their runs. */
function store(n: number) {
  const db = new BetterSqlite3(':memory:');
  db.exec('CREATE TABLE listings (id INTEGER PRIMARY KEY, source TEXT, sku TEXT, line_hash TEXT, UNIQUE (source, sku))');
  const insert = db.prepare('INSERT INTO listings VALUES (?, ?, ?, ?)');
  for (let id = 1; id <= n; id++) insert.run(id, id % 3 ? 'shopee_sg' : 'lazada_my', `S-${id}`, id % 7 ? `h${id}` : null);
  const calls = { point: 0, range: 0 };
  const point = db.prepare('SELECT id, line_hash FROM listings WHERE source = ? AND sku = ?').raw();
  const range = db.prepare('SELECT id, source, sku, line_hash FROM listings WHERE id > ? ORDER BY id LIMIT ?').raw();
  const counted = (s: typeof point, name: keyof typeof calls) =>
    ({ get: (...a: unknown[]) => { calls[name]++; return s.get(...a); }, all: (...a: unknown[]) => { calls[name]++; return s.all(...a); } }) as unknown as typeof point;
  return { rows: new KnownRows(counted(point, 'point'), counted(range, 'range')), calls };
}

const keyOf = (id: number): [string, string] => [id % 3 ? 'shopee_sg' : 'lazada_my', `S-${id}`];
const expected = (id: number) => ({ id, hash: id % 7 ? `h${id}` : null });

describe('KnownRows: the stored line of a (source, sku), read ahead while lines follow the stored order', () => {
  it('a feed in stored order is answered from range scans after its first lines', () => {
    const { rows, calls } = store(5000);
    for (let id = 1; id <= 5000; id++) expect(rows.get(...keyOf(id))).toEqual(expected(id));
    expect(calls.point).toBe(2);
    expect(calls.range).toBeLessThan(15);
  });

  it('a feed in another order gets every answer right with one point look-up a line and no scan', () => {
    const { rows, calls } = store(2000);
    const order = Array.from({ length: 2000 }, (_, i) => 1 + ((i * 769) % 2000));
    for (const id of order) expect(rows.get(...keyOf(id))).toEqual(expected(id));
    expect(calls.point).toBe(2000);
    expect(calls.range).toBe(0);
  });

  it('new listings, a skipped run and a step back among ordered lines change no answer', () => {
    const { rows, calls } = store(3000);
    const ids = [...Array.from({ length: 500 }, (_, i) => i + 1), 0, 1200, ...Array.from({ length: 300 }, (_, i) => i + 1201), 40, 41, 42, 2999, 3000];
    for (const id of ids) {
      if (id === 0) expect(rows.get('shopee_sg', 'NEW-1')).toBeUndefined();
      else expect(rows.get(...keyOf(id))).toEqual(expected(id));
    }
    expect(rows.get('lazada_my', 'S-1')).toBeUndefined();
    expect(calls.point).toBeLessThan(20);
  });

  it('lines that skip rows of a read-ahead run are still answered from it, the rows they skip unasked', () => {
    const { rows, calls } = store(3000);
    const ids = Array.from({ length: 3000 }, (_, i) => i + 1).filter((id) => id % 5 !== 3 || id < 10);
    for (const id of ids) expect(rows.get(...keyOf(id))).toEqual(expected(id));
    expect(calls.point).toBeLessThan(10);
  });
});
