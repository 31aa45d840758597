// Plain JavaScript: `node --import` loads it into a built gateway (dist/) before its entry point, no tsx there.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.MODULE_RECORD;

/** Registered with `NODE_OPTIONS=--import=<this file>`: every module URL the process loads is appended to MODULE_RECORD. */
register(new URL('./module-recorder-hooks.mjs', import.meta.url), { data: { file } });

// The hooks see what the ESM loader loads; a require() (a CommonJS package's own, or createRequire's) goes
// to the CommonJS loader alone on Node 20, so each CommonJS file compiled is appended here as well.
const compileJs = Module._extensions['.js'];
Module._extensions['.js'] = function recordAndCompile(module, filename) {
  if (file) appendFileSync(file, `${pathToFileURL(filename).href}\n`);
  return compileJs.call(this, module, filename);
};
