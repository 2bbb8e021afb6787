import { afterAll } from 'vitest';
import { storeContract } from '../store/contract.js';
import { schemaFactory } from './env.js';

const schemas = schemaFactory('contract');
afterAll(() => schemas.dropAll());

storeContract('postgres', () => schemas.store());
