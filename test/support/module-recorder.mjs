// Plain JavaScript: `node --import` loads it into a built gateway (dist/) before its entry point, no tsx there.
import { register } from 'node:module';

/** Registered with `NODE_OPTIONS=--import=<this file>`: every module URL the process loads is appended to MODULE_RECORD. */
register(new URL('./module-recorder-hooks.mjs', import.meta.url), { data: { file: process.env.MODULE_RECORD } });
