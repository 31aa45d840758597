import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ProbeOptions, probeResponse } from './probes.js';
import type { MetricsJson } from './status/figures.js';
import { statusRoute } from './status/serve.js';

/**
 * The operators' listener (METRICS_PORT): GET /metrics, /healthz and /readyz with their detailed
 * bodies, and the status page (/status, drawn from /status.json: the same registry as /metrics). It listens on HOST like the public port: keep METRICS_PORT off the public network (expose
 * only PORT, or let only the scraper reach it).
 */
export async function startOpsServer(
  probes: Omit<ProbeOptions, 'detailed'>,
  host: string,
  port: number,
  figures: () => Promise<MetricsJson>,
): Promise<{ server: Server; port: number }> {
  const status = statusRoute(figures);
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://ops').pathname;
    if (status.serve(pathname, req, res)) return;
    probeResponse(pathname, req.method ?? 'GET', { ...probes, detailed: true }).then(
      (answer) => {
        if (!answer) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
          return;
        }
        res.writeHead(answer.status, answer.headers).end(answer.body);
      },
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed'),
    );
  });
  server.once('close', () => status.close());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
