import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { FAULT_TOKEN } from '../support/fault-upstream.js';
import type { GraphQLResponse } from '../support/gateway.js';

/** Upstream calls the gateway's built-in sandbox has answered so far, all actions together. */
export { sandboxCalls } from '../support/assertions.js';

/** Nothing a client must never see: tokens, stacks, file positions, field suggestions. */
export function expectNoLeak(text: string, secrets: string[] = []) {
  for (const secret of [FAULT_TOKEN, 'sandbox-token', ...secrets]) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/"stack"|\bat .*\.(ts|js):\d+|node_modules/);
  expect(text).not.toMatch(/Did you mean/);
}

/** A refusal: its HTTP status, its code on the first error, no data, nothing leaked. */
export function expectRefused(res: GraphQLResponse, status: number, code: string, secrets: string[] = []) {
  expect({ status: res.status, code: res.body.errors?.[0]?.extensions?.code }).toEqual({ status, code });
  expect(res.body.data ?? undefined).toBeUndefined();
  expectNoLeak(res.text, secrets);
}

/** A POST with Transfer-Encoding: chunked (no Content-Length), written in `chunks` pieces. */
export function postChunked(
  url: string,
  body: string,
  chunks: number,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        'transfer-encoding': 'chunked',
        ...headers,
      },
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let parsed = {};
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = {};
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: new Headers(res.headers as Record<string, string>),
          body: parsed,
          text,
        });
      });
    });
    // The gateway may answer 413 and close before the whole body is written.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    const size = Math.ceil(body.length / chunks);
    for (let i = 0; i < body.length; i += size) req.write(body.slice(i, i + size));
    req.end();
  });
}

export const repeat = (n: number, make: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => make(i)).join(' ');
