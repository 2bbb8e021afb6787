import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { storeContract } from './contract.js';
import { lookupContract } from './lookup-contract.js';

storeContract('sqlite', async () => createSqliteStore(':memory:'));
lookupContract('sqlite', async () => createSqliteStore(':memory:'));
