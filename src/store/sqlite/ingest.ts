import type { Database, Statement } from 'better-sqlite3';
import { profileOfListing } from '../../domain/listing-profile.js';
import { blockingKeys, chooseGroup, PROFILE_VERSION, type MatchProfile } from '../../domain/matching/index.js';
import { planIngest, type ListingState } from '../../domain/ingest-rules.js';
import type { NormalizedRecord } from '../../domain/ingest-record.js';
import { derivedColumns, listingUuid } from '../derived.js';
import type { IngestBatchResult } from '../types.js';
import { toListing, type ListingRow } from './rows.js';

/** Candidates considered per listing, taken from the most selective blocking keys first. */
const MAX_CANDIDATES = 40;
const PROFILE_CACHE = 100_000;
const HISTORY_WINDOW_MS = 90 * 86400_000;

/** Writes ingest batches: one transaction per batch, listing + observation + events + group together. */
export class SqliteIngestWriter {
  private readonly s: Record<string, Statement>;
  private readonly run: (records: NormalizedRecord[]) => IngestBatchResult;

  constructor(private readonly db: Database) {
    const cols = `source, sku, merchant_id, title, description, brand, category, category_path, category_key, gtin, mpn,
      price, currency, price_sgd, price_usd, price_sgd_minor, original_price, discount_pct, history_discount_pct, url, domain,
      affiliate_url, image_url, rating, review_count, region, country_code, in_stock, stock_level, shipping_days, specs,
      metadata, variants, price_trend, reference_price, last_checked_at, data_updated_at, updated_at`;
    const names = cols.split(',').map((c) => c.trim());
    this.s = {
      find: db.prepare('SELECT * FROM listings WHERE source = ? AND sku = ?'),
      insert: db.prepare(`INSERT INTO listings (uuid, group_id, created_at, ${cols}) VALUES (@uuid, 0, @created_at, ${names.map((n) => '@' + n).join(', ')})`),
      update: db.prepare(`UPDATE listings SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`),
      touch: db.prepare('UPDATE listings SET last_checked_at = ? WHERE id = ?'),
      setGroup: db.prepare('UPDATE listings SET group_id = ?, match_profile = ? WHERE id = ?'),
      ftsDelete: db.prepare('DELETE FROM listings_fts WHERE rowid = ?'),
      ftsInsert: db.prepare('INSERT INTO listings_fts (rowid, title, brand, category) VALUES (?, ?, ?, ?)'),
      observe: db.prepare('INSERT OR REPLACE INTO observations (listing_id, observed_at, price, currency, source) VALUES (?, ?, ?, ?, ?)'),
      recent: db.prepare('SELECT price FROM observations WHERE listing_id = ? AND observed_at >= ? ORDER BY observed_at').pluck(),
      event: db.prepare('INSERT INTO events (kind, listing_id, payload, created_at) VALUES (?, ?, ?, ?)'),
      keysDelete: db.prepare('DELETE FROM block_keys WHERE listing_id = ?'),
      keyInsert: db.prepare('INSERT OR IGNORE INTO block_keys (key, listing_id) VALUES (?, ?)'),
      candidateIds: db.prepare(`SELECT b.listing_id AS id FROM block_keys b WHERE b.key = ? AND b.listing_id <> ? ORDER BY b.listing_id LIMIT ${MAX_CANDIDATES}`),
      byId: db.prepare('SELECT * FROM listings WHERE id = ?'),
      setProfile: db.prepare('UPDATE listings SET match_profile = ? WHERE id = ?'),
      candidateRow: db.prepare('SELECT group_id AS groupId, match_profile AS profile FROM listings WHERE id = ?'),
      lastEvent: db.prepare('SELECT coalesce(max(id), 0) FROM events').pluck(),
      count: db.prepare("UPDATE counters SET value = value + ? WHERE name = 'listings'"),
    };
    this.run = db.transaction((records: NormalizedRecord[]) => this.apply(records));
  }

  write(records: NormalizedRecord[]): IngestBatchResult {
    return this.run(records);
  }

  private apply(records: NormalizedRecord[]): IngestBatchResult {
    // Another writer (a CLI import beside the server) may have moved groups since our last batch.
    const head = this.s.lastEvent.get() as number;
    if (head !== this.lastEventSeen) this.profiles.clear();
    const outcomes: IngestBatchResult['outcomes'] = [];
    let events = 0;
    let inserted = 0;
    for (const r of records) {
      const row = this.s.find.get(r.source, r.sku) as ListingRow | undefined;
      const prev = row ? toListing(row) : null;
      const since = new Date(new Date(r.observedAt).getTime() - HISTORY_WINDOW_MS).toISOString();
      const recent = prev && prev.price !== r.price ? (this.s.recent.all(prev.id, since) as string[]) : [];
      const plan = planIngest(prev, r, recent);
      let id = prev?.id ?? 0;
      const uuid = prev?.uuid ?? listingUuid(r.source, r.sku);
      if (plan.state && plan.outcome === 'unchanged') {
        this.s.touch.run(plan.state.lastCheckedAt, id);
      } else if (plan.state) {
        const params = this.params(plan.state);
        if (prev) {
          this.s.update.run({ ...params, id });
        } else {
          id = Number(this.s.insert.run({ ...params, uuid, created_at: r.observedAt }).lastInsertRowid);
          inserted++;
        }
        if (!prev || plan.regroup || prev.category !== r.category) {
          if (prev) this.s.ftsDelete.run(id);
          this.s.ftsInsert.run(id, r.title, r.brand, (r.categoryPath ?? [r.category ?? '']).join(' '));
        }
        if (plan.regroup) this.assignGroup(id, plan.state);
      }
      if (plan.observe) this.s.observe.run(id, r.observedAt, r.price, r.currency, r.source);
      for (const draft of plan.events) {
        const e = draft(id, uuid);
        this.s.event.run(e.kind, id, JSON.stringify(e.payload), r.observedAt);
        events++;
      }
      outcomes.push({ line: r.line, outcome: plan.outcome, id });
    }
    if (inserted) this.s.count.run(inserted);
    this.lastEventSeen = this.s.lastEvent.get() as number;
    return { outcomes, events };
  }

  private assignGroup(id: number, s: ListingState): void {
    const profile = profileOfListing(s);
    const keys = blockingKeys(profile);
    const seen = new Set<number>();
    const candidates: Array<{ id: number; groupId: number; profile: MatchProfile }> = [];
    // Keys come most selective first; stop once enough candidates are in hand.
    for (const key of keys) {
      if (candidates.length >= MAX_CANDIDATES) break;
      for (const { id: cid } of this.s.candidateIds.all(key, id) as Array<{ id: number }>) {
        if (seen.has(cid) || candidates.length >= MAX_CANDIDATES) continue;
        seen.add(cid);
        const c = this.candidate(cid);
        if (c) candidates.push(c);
      }
    }
    candidates.sort((a, b) => a.id - b.id);
    const choice = chooseGroup(profile, candidates);
    const groupId = choice?.groupId ?? id;
    this.s.setGroup.run(groupId, JSON.stringify(profile), id);
    this.remember(id, groupId, profile);
    this.s.keysDelete.run(id);
    for (const key of keys) this.s.keyInsert.run(key, id);
  }

  /** Parsed profiles of recent listings: blocking hits the same few products again and again. */
  private lastEventSeen = -1;
  private readonly profiles = new Map<number, { id: number; groupId: number; profile: MatchProfile }>();

  private candidate(id: number): { id: number; groupId: number; profile: MatchProfile } | null {
    const hit = this.profiles.get(id);
    if (hit) return hit;
    const row = this.s.candidateRow.get(id) as { groupId: number; profile: string | null } | undefined;
    if (!row?.profile) return null;
    let profile = JSON.parse(row.profile) as MatchProfile;
    if (profile.v !== PROFILE_VERSION) {
      // Stored by an older matcher: rebuild from the listing and store it again.
      profile = profileOfListing(toListing(this.s.byId.get(id) as ListingRow));
      this.s.setProfile.run(JSON.stringify(profile), id);
    }
    return this.remember(id, row.groupId, profile);
  }

  private remember(id: number, groupId: number, profile: MatchProfile) {
    const entry = { id, groupId, profile };
    this.profiles.delete(id);
    if (this.profiles.size >= PROFILE_CACHE) this.profiles.delete(this.profiles.keys().next().value as number);
    this.profiles.set(id, entry);
    return entry;
  }

  private params(s: ListingState): Record<string, unknown> {
    const d = derivedColumns(s);
    const j = (v: unknown) => (v == null ? null : JSON.stringify(v));
    return {
      source: s.source, sku: s.sku, merchant_id: s.merchantId, title: s.title, description: s.description,
      brand: s.brand, category: s.category, category_path: j(s.categoryPath), category_key: d.categoryKey,
      gtin: s.gtin, mpn: s.mpn, price: s.price, currency: s.currency, price_sgd: s.priceSgd, price_usd: s.priceUsd,
      price_sgd_minor: d.priceSgdMinor, original_price: s.originalPrice, discount_pct: d.discountPct,
      history_discount_pct: d.historyDiscountPct, url: s.url, domain: d.domain, affiliate_url: s.affiliateUrl,
      image_url: s.imageUrl, rating: s.rating, review_count: s.reviewCount, region: s.region,
      country_code: s.countryCode, in_stock: s.inStock == null ? null : s.inStock ? 1 : 0,
      stock_level: s.stockLevel, shipping_days: s.shippingDays, specs: j(s.specs), metadata: j(s.metadata),
      variants: j(s.variants), price_trend: s.priceTrend, reference_price: s.referencePrice,
      last_checked_at: s.lastCheckedAt, data_updated_at: s.dataUpdatedAt, updated_at: s.updatedAt,
    };
  }
}
