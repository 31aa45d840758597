/**
 * Response compression by @whatwg-node/server's useContentEncoding, for its response side only (its
 * request side would inflate a compressed body after the body limit has counted it). The library has
 * no size threshold, no q-values, and offers brotli at zlib's quality 11 (82 ms for a 14 KB answer
 * against 0.3 ms for gzip), so this gate hands it gzip alone, and only: responses of at least
 * MIN_BYTES whose length is known (JSON results, the GraphiQL page, /metrics), to a client whose
 * Accept-Encoding accepts gzip. Streams (@defer/@stream over multipart/mixed or SSE) have no length and
 * are sent as they are, so every part still goes out the moment it is ready.
 */
import { useContentEncoding } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';
import { addVary } from '../kernel/vary.js';

/** Below this, gzip saves a few hundred bytes at most: less than a round of zlib work is worth. */
const MIN_BYTES = 1024;
const COMPRESSIBLE_TYPE = /^(application\/(json|graphql-response\+json)|text\/(html|plain))\b/i;

/** Whether an Accept-Encoding header accepts gzip: named, or `*`, with q > 0. */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  const q: { gzip?: number; '*'?: number } = {};
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [rawName = '', ...params] = part.toLowerCase().split(';');
    const name = rawName.trim();
    if (name !== 'gzip' && name !== '*') continue;
    const weight = params.map((p) => /^\s*q=([01](\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
    q[name] = weight ? Number(weight[1]) : 1;
  }
  return (q.gzip ?? q['*'] ?? 0) > 0;
}

export function useCompression(): Plugin {
  const library = useContentEncoding();
  const gzipOnly = { headers: new Headers({ 'accept-encoding': 'gzip' }) } as Request;
  return {
    onResponse(payload) {
      const { request, response } = payload;
      const length = Number(response.headers.get('content-length'));
      if (!(length >= MIN_BYTES) || request.method === 'HEAD' || response.headers.has('content-encoding')) return;
      if (!COMPRESSIBLE_TYPE.test(response.headers.get('content-type') ?? '')) return;
      // A cache in between must keep the encodings apart, whichever one this client gets.
      addVary(response.headers, 'Accept-Encoding');
      if (acceptsGzip(request.headers.get('accept-encoding')))
        return library.onResponse?.({ ...payload, request: gzipOnly } as never);
    },
  };
}
