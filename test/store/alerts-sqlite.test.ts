import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { alertStoreContract } from './alert-contract.js';

alertStoreContract('sqlite', async () => createSqliteStore(':memory:'));
