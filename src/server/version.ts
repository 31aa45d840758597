import { readFileSync } from 'node:fs';

/** The version in package.json (beside src/ and dist/ alike): what /healthz reports and the image is tagged with. */
export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
