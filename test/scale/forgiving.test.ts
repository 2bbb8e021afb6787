import { afterAll } from 'vitest';
import { forgivingContract } from '../search/forgiving-contract.js';
import { schemaFactory, urlWithSchema } from './env.js';

// Issue 26 part 3 on PostgreSQL: tsquery (SEARCH_INDEX=off) and the in-memory index over it.
const schemas = schemaFactory('forgiving');
afterAll(() => schemas.dropAll());

forgivingContract('PostgreSQL tsquery, SEARCH_INDEX=off', () => ({ DATABASE_URL: urlWithSchema(schemas.schema()), SEARCH_INDEX: 'off' }));
forgivingContract('PostgreSQL, in-memory index', () => ({ DATABASE_URL: urlWithSchema(schemas.schema()), SEARCH_INDEX: 'memory' }));
