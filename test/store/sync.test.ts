import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { syncContract } from './sync-contract.js';

syncContract('sqlite', async () => createSqliteStore(':memory:'));
