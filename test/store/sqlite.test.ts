import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { storeContract } from './contract.js';

storeContract('sqlite', async () => createSqliteStore(':memory:'));
