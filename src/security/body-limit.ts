import type { Plugin } from 'graphql-yoga';
import { rejection } from './errors.js';

const DIGITS = /^\d+$/;

// The rest of the body is never read: the connection closes after the answer instead of being reused.
const tooLarge = (maxBytes: number) =>
  rejection('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`, 413, {
    headers: { Connection: 'close' },
    extensions: { limit: maxBytes },
  });

/**
 * PAYLOAD_TOO_LARGE (413) above `maxBytes`, in place of Yoga's default guard (which pipes every
 * POST body through a TransformStream and builds a new Request with an AbortSignal).
 *  - With a Content-Length: refused on the header before a byte is read. When the request came
 *    through node:http (the gateway's server), Node's HTTP parser delivers exactly Content-Length
 *    bytes, never more, so the declared size IS the size read: nothing else to do, no copy.
 *  - Without one (chunked) or from another adapter: the body is read here, counting bytes, and
 *    reading stops with 413 at the first chunk that crosses the limit.
 */
export function useBodyLimit(maxBytes: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, serverContext, fetchAPI }) {
      const declared = request.headers.get('content-length');
      if (declared !== null) {
        if (!DIGITS.test(declared)) throw rejection('BAD_REQUEST', 'The Content-Length header is invalid.', 400);
        if (Number(declared) > maxBytes) throw tooLarge(maxBytes);
        if ((serverContext as { req?: unknown }).req) return;
      }
      if (!requestParser || request.method === 'GET' || request.method === 'HEAD') return;
      const parse = requestParser;
      setRequestParser(async (req) => {
        const body = await readWithin(req, maxBytes);
        return parse(
          new fetchAPI.Request(req.url, {
            method: req.method,
            headers: req.headers,
            body: body as unknown as BodyInit,
          }),
        );
      });
    },
  };
}

/** The body, read while counting: PAYLOAD_TOO_LARGE (thrown) at the first chunk past `maxBytes`. */
export async function readWithin(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
