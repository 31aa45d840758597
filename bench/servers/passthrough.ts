import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

/**
 * The floor for (d): a bare node:http server that forwards each POST to the upstream over undici
 * and sends the answer back. What the gateway adds beyond this is its own work, not the extra hop.
 */
const upstream = new Pool(process.env.UPSTREAM_ORIGIN!, { connections: 4 });
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const answer = await upstream.request({
    path: req.url!,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
    body: Buffer.concat(chunks),
  });
  const body = await answer.body.text();
  res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`READY ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
