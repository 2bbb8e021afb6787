import { afterAll, afterEach, beforeEach, describe, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { webhookStoreContract } from '../store/webhook-contract.js';
import { FakeClock } from '../helpers/clock.js';
import { Receiver } from '../webhooks/receiver.js';
import { restartLosesNothing, twoInstancesDeliverOnce } from '../webhooks/scenarios.js';
import { schemaFactory, urlWithSchema } from './env.js';

/** The webhook outbox on PostgreSQL: the store contract, then claims across instances (FOR UPDATE SKIP LOCKED). */
const schemas = schemaFactory('webhooks');
afterAll(() => schemas.dropAll());

webhookStoreContract('postgres', () => schemas.store());

describe('the outbox on one PostgreSQL schema', () => {
  let rx: Receiver;
  let url: string;
  const clock = new FakeClock();
  const open = () => createContainer(loadConfig({ DATABASE_URL: url, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }), { clock });
  beforeEach(async () => {
    url = urlWithSchema(schemas.schema());
    rx = await new Receiver().start();
  });
  afterEach(() => rx.close());

  it('two instances deliver each event once', async () => {
    await twoInstancesDeliverOnce(open, rx, 200);
  });

  it('a restart mid-queue loses nothing and sends nothing twice after a recorded success', async () => {
    await restartLosesNothing(open, rx, 30, () => clock.advance(60_000));
  });
});
