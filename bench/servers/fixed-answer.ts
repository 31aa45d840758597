import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor for (c) against (b): a bare node:http server that reads each POST body whole and answers
 * with bytes recorded from the gateway, the full profile's (FIXED_LARGE_FILE) for a body over 1 KB (the
 * full profile's 5.4 KB query), else the 5-field profile's (FIXED_SMALL_FILE). No GraphQL, no work: what
 * is left between its two rates is reading, writing and, in the load generator, parsing the bytes.
 */
const small = readFileSync(process.env.FIXED_SMALL_FILE!);
const large = readFileSync(process.env.FIXED_LARGE_FILE!);
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).length > 1024 ? large : small;
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) })
      .end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`READY ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
