import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { MailMessage, Mailer } from '../../src/accounts/mailer.js';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer, type Container, type ContainerOptions } from '../../src/container.js';
import type { Tier } from '../../src/domain/tier.js';
import { FakeClock } from '../helpers/clock.js';
import { checkResponseContracts } from '../helpers/contract.js';

export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(msg: MailMessage): Promise<void> {
    this.sent.push(msg);
  }
  /** The verification token of the last message. */
  lastToken(): string {
    const m = /token=(\S+)/.exec(this.sent.at(-1)?.text ?? '');
    if (!m) throw new Error('no verification link sent');
    return m[1];
  }
}

export interface AccountsHarness {
  app: App; c: Container; clock: FakeClock; mailer: CapturingMailer;
  key(tier?: Tier): Promise<{ key: string; id: number; headers: { authorization: string } }>;
  close(): Promise<void>;
}

/** A TIERS_FILE on disk for the given overrides. */
export function tiersFile(tiers: Record<string, { per_minute?: number; per_day?: number | null }>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tiers-')), 'tiers.json');
  writeFileSync(file, JSON.stringify(tiers));
  return file;
}

/** Like test/helpers/app.ts, plus a capturing mailer and a hook to add routes (tier gates) before the app is ready. */
export async function accountsHarness(
  env: Record<string, string> = {},
  opts: { routes?: (app: FastifyInstance) => void; clock?: FakeClock; caches?: Pick<ContainerOptions, 'keyCache' | 'tokenCache'> } = {},
): Promise<AccountsHarness> {
  const clock = opts.clock ?? new FakeClock();
  const mailer = new CapturingMailer();
  const c = await createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off', ...env }), { clock, mailer, ...opts.caches });
  const app = await buildApp(c);
  checkResponseContracts(app);
  opts.routes?.(app);
  await app.ready();
  return {
    app, c, clock, mailer,
    async key(tier: Tier = 'pro') {
      const { apiKey, record } = await c.keys.create({ tier, name: 'test', verified: tier !== 'unverified' });
      return { key: apiKey, id: record.id, headers: { authorization: `Bearer ${apiKey}` } };
    },
    async close() {
      await app.close();
      await c.close();
    },
  };
}
