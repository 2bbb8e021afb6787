// Runs a TypeScript worker module (the URL given as its first argv) under tsx, so tests exercise
// worker threads on the sources as the build runs them on compiled JavaScript.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2]);
