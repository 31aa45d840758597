import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

export interface StaticProxy {
  url: string;
  /** Where /graphql goes; may be changed between page loads. */
  target: string;
  close(): Promise<void>;
}

/**
 * Serves a built single-page app from `root` and streams /graphql to the gateway at `target` (as
 * `vite preview` or a production reverse proxy does: same origin for the app and the API). Streams
 * in both directions, so incremental (multipart, event-stream) responses arrive as the gateway sends them,
 * and a page that closes its connection closes the gateway's.
 */
export async function startStaticProxy(root: string, target: string): Promise<StaticProxy> {
  const state = { target };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/graphql') {
      const upstream = new URL(`${url.pathname}${url.search}`, state.target);
      const proxied = httpRequest(
        upstream,
        { method: req.method, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      proxied.on('error', () => res.headersSent || res.writeHead(502).end());
      // A page that leaves closes its connection; the gateway's is closed too (an open stream is released).
      res.on('close', () => res.writableFinished || proxied.destroy());
      req.pipe(proxied);
      return;
    }
    let file = normalize(join(root, url.pathname));
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get target() {
      return state.target;
    },
    set target(value: string) {
      state.target = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
