import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MetricsJson } from './figures.js';

type StatusPage = ReturnType<typeof import('./page.js').createStatusPage>;

/**
 * The status page on a metrics listener, its module (with uPlot) loaded on the first request for it: a
 * gateway nobody opens the page on never loads it. Answers true when the request was the page's.
 */
export function statusRoute(source: () => Promise<MetricsJson>): {
  serve(pathname: string, req: IncomingMessage, res: ServerResponse): boolean;
  close(): void;
} {
  let page: Promise<StatusPage> | null = null;
  return {
    serve(pathname, req, res) {
      if (pathname !== '/status' && pathname !== '/status.json' && !pathname.startsWith('/status/')) return false;
      page ??= import('./page.js').then(({ createStatusPage }) => createStatusPage(source));
      page
        .then((loaded) => loaded.answer(pathname, req.method ?? 'GET'))
        .then(
          (answer) => {
            if (!answer) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
            else res.writeHead(answer.status, answer.headers).end(req.method === 'HEAD' ? undefined : answer.body);
          },
          () => res.writeHead(500, { 'content-type': 'text/plain' }).end('status failed'),
        );
      return true;
    },
    close() {
      void page?.then((loaded) => loaded.close());
    },
  };
}
