import type pg from 'pg';
import { isAccessoryListing } from '../../domain/accessory.js';
import { categoryKey, fromJsonColumn } from '../../domain/listing-columns.js';
import { rows } from './sql.js';
import { tsvectorLiteral } from './text-search.js';

const CHUNK = 1000;

interface TextRow { id: number; title: string; brand: string | null; category: string | null; category_path: string | null }

/**
 * Migration 6: the listings whose title, brand or category has "đ" or "Đ" get their search terms
 * (tsv) and category key written again, in the form ingest now writes them (đ folded to d). Read
 * in id order, a chunk at a time, inside the migration's transaction; other listings are unchanged.
 */
export async function refoldStrokedD(db: pg.PoolClient): Promise<void> {
  const has = (col: string) => `strpos(coalesce(${col}, ''), 'đ') > 0 OR strpos(coalesce(${col}, ''), 'Đ') > 0`;
  for (let after = 0; ;) {
    const found = await rows<TextRow>(db, `SELECT id, title, brand, category, category_path FROM listings
      WHERE id > ? AND (${['title', 'brand', 'category', 'category_path'].map(has).join(' OR ')}) ORDER BY id LIMIT ?`, [after, CHUNK]);
    if (!found.length) return;
    const ids: number[] = [];
    const tsv: string[] = [];
    const keys: Array<string | null> = [];
    for (const r of found) {
      const path = fromJsonColumn<string[]>(r.category_path);
      ids.push(r.id);
      tsv.push(tsvectorLiteral(r.title, r.brand, path, r.category));
      keys.push(categoryKey(path, r.category));
    }
    await db.query(`UPDATE listings l SET tsv = t.tsv::tsvector, category_key = t.key
      FROM unnest($1::int8[], $2::text[], $3::text[]) AS t(id, tsv, key) WHERE l.id = t.id`, [ids, tsv, keys]);
    after = found[found.length - 1].id;
  }
}

/** Migration 6: `accessory` set on every listing isAccessoryListing says is one, read in id order a chunk at a time. */
export async function flagAccessories(db: pg.PoolClient): Promise<void> {
  for (let after = 0; ;) {
    const found = await rows<Omit<TextRow, 'brand'>>(db, 'SELECT id, title, category, category_path FROM listings WHERE id > ? ORDER BY id LIMIT ?', [after, CHUNK]);
    if (!found.length) return;
    const ids = found.filter((r) => isAccessoryListing({ title: r.title, categoryPath: fromJsonColumn<string[]>(r.category_path), category: r.category })).map((r) => r.id);
    if (ids.length) await db.query('UPDATE listings SET accessory = 1 WHERE id = ANY($1::int8[])', [ids]);
    after = found[found.length - 1].id;
  }
}
