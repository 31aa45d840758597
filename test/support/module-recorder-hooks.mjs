// Plain JavaScript: module hooks run in Node's loader thread, outside tsx.
import { appendFileSync } from 'node:fs';

let file;

/** Receives the file to record into from module-recorder.mjs. */
export function initialize(data) {
  file = data.file;
}

/** Appends each loaded module's URL, one a line, then loads it as usual. */
export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
