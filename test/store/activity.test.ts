import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { activityContract } from './activity-contract.js';

activityContract('sqlite', async () => createSqliteStore(':memory:'));
