import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { webhookStoreContract } from './webhook-contract.js';

webhookStoreContract('sqlite', async () => createSqliteStore(':memory:'));
