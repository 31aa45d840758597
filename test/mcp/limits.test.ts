import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { sandboxCalls } from '../support/assertions.js';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway, type TestGateway } from '../support/gateway.js';

const KEYS = Array.from({ length: 8 }, (_, i) => `lg_test_mcp_limits_key_${i}_0123456789abcdef`);
const LIMIT = 3;

type Reply = {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: { isError?: boolean; content?: Array<{ text: string }>; tools?: unknown[] };
  error?: { code: number; message: string; data?: { code?: string; limit?: number; retryAfter?: number } };
};

const message = (id: number, method: string, params?: unknown) =>
  ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }) as const;
const toolCall = (id: number, name: string, args: unknown) => message(id, 'tools/call', { name, arguments: args });
const INITIALIZE = message(1, 'initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'raw', version: '1' },
});

const postMcp = async (gw: TestGateway, body: unknown, key: string) => {
  const res = await gw.fetch('/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': key,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Reply & Reply[] };
};

/** The lines the gateway logged since `from`, parsed. */
const linesSince = (gw: TestGateway, from: number) =>
  gw.logs.slice(from).map((line) => JSON.parse(line) as { msg: string; request?: Record<string, unknown> });

/** `depth` arrays, one inside the other, as JSON text (JSON.stringify itself would overflow the stack on it). */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** `json` with the JSON text `deep` in place of the string "DEEP". */
const withDeep = (json: unknown, deep: string) => JSON.stringify(json).replace('"DEEP"', deep);

describe('every MCP message counts toward the client rate limit', () => {
  const gw = forSuite(() =>
    inProcessGateway({
      GATEWAY_API_KEY_HASHES: KEYS.map(hashApiKey).join(','),
      CLIENT_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      MAX_BATCH_OPERATIONS: '10',
    }),
  );

  it('tools/list, initialize and ping: the message after the limit is 429 RATE_LIMITED with Retry-After', async () => {
    const key = KEYS[0]!;
    expect((await postMcp(gw, message(1, 'tools/list'), key)).status).toBe(200);
    expect((await postMcp(gw, INITIALIZE, key)).status).toBe(200);
    expect((await postMcp(gw, message(3, 'ping'), key)).status).toBe(200);
    const refused = await postMcp(gw, message(4, 'tools/list'), key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.id).toBe(4);
    expect(refused.body.error).toMatchObject({ data: { code: 'RATE_LIMITED' } });
    expect(refused.body.error!.message).toMatch(/at most 3 a minute/);
    // Another client is not held by this one's count.
    expect((await postMcp(gw, message(1, 'tools/list'), KEYS[1]!)).status).toBe(200);
  });

  it('a body that is not JSON, or not JSON-RPC, counts too', async () => {
    const key = KEYS[2]!;
    expect((await postMcp(gw, '{"jsonrpc": "2.0", "id": 1, ', key)).status).toBe(400);
    expect((await postMcp(gw, { not: 'json-rpc' }, key)).status).toBe(400);
    expect((await postMcp(gw, nested(50), key)).status).toBe(400);
    const refused = await postMcp(gw, '{"jsonrpc": "2.0", "id": 1, ', key);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ data: { code: 'RATE_LIMITED' } });
  });

  it('each message of a batch counts: those over the limit are refused on their own, in order', async () => {
    const key = KEYS[3]!;
    const before = gw.logs.length;
    const res = await postMcp(
      gw,
      [message(1, 'ping'), message(2, 'tools/list'), message(3, 'ping'), message(4, 'tools/list'), message(5, 'ping')],
      key,
    );
    expect(res.status).toBe(200);
    expect(res.body.map((reply) => reply.id)).toEqual([1, 2, 3, 4, 5]);
    expect(res.body.slice(0, 3).every((reply) => reply.result !== undefined)).toBe(true);
    for (const reply of res.body.slice(3)) expect(reply.error).toMatchObject({ data: { code: 'RATE_LIMITED' } });
    const lines = linesSince(gw, before).filter((line) => line.msg === 'mcp request');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.request).toMatchObject({ messages: 5, refused: 2, errorCodes: ['RATE_LIMITED'] });
  });

  it('the tool calls of a batch count once each (their GraphQL requests are not counted again)', async () => {
    const key = KEYS[4]!;
    const res = await postMcp(
      gw,
      [1, 2, 3].map((id) => toolCall(id, 'domain_info', { domain: `counted-once-${id}.example` })),
      key,
    );
    expect(res.body.map((reply) => reply.result?.isError ?? false)).toEqual([false, false, false]);
    expect((await postMcp(gw, message(4, 'ping'), key)).status).toBe(429);
  });

  it('a batch whose tool calls are all refused: tool errors, no upstream call, one log line', async () => {
    const key = KEYS[5]!;
    for (let id = 0; id < LIMIT; id++) await postMcp(gw, message(id, 'ping'), key);
    const before = gw.logs.length;
    const calls = sandboxCalls(gw);
    const res = await postMcp(
      gw,
      [1, 2, 3, 4, 5].map((id) => toolCall(id, 'domain_info', { domain: `refused-${id}.example` })),
      key,
    );
    expect(res.status).toBe(200);
    for (const reply of res.body) {
      expect(reply.result?.isError).toBe(true);
      const { errors } = JSON.parse(reply.result!.content![0]!.text) as { errors: Array<{ code: string }> };
      expect(errors[0]!.code).toBe('RATE_LIMITED');
    }
    expect(sandboxCalls(gw)).toBe(calls);
    const lines = linesSince(gw, before);
    expect(lines.map((line) => line.msg)).toEqual(['mcp request']);
    expect(lines[0]!.request).toMatchObject({ status: 200, messages: 5, refused: 5, errorCodes: ['RATE_LIMITED'] });
  });

  it('a single tool call over the limit is still a tool error over HTTP 200', async () => {
    const key = KEYS[6]!;
    for (let id = 0; id < LIMIT; id++) await postMcp(gw, message(id, 'ping'), key);
    const res = await postMcp(gw, toolCall(9, 'domain_info', { domain: 'single.example' }), key);
    expect(res.status).toBe(200);
    expect(res.body.result?.isError).toBe(true);
    expect(res.body.result!.content![0]!.text).toMatch(/RATE_LIMITED/);
  });
});

describe('JSON nested deeper than MAX_INPUT_DEPTH in an MCP body', () => {
  const gw = forSuite(() => inProcessGateway({ MAX_REQUEST_BYTES: String(1024 * 1024), MAX_BATCH_OPERATIONS: '10' }));
  const post = (body: unknown) => postMcp(gw, body, 'unused');

  it('a tool argument 50,000 deep: 400, invalid params coded MAX_INPUT_DEPTH_EXCEEDED as on /graphql, no call', async () => {
    const calls = sandboxCalls(gw);
    const res = await post(withDeep(toolCall(1, 'domain_info', { domain: 'DEEP' }), nested(50_000)));
    expect(res.status).toBe(400);
    expect(res.body.id).toBe(1);
    expect(res.body.error).toMatchObject({
      code: -32602,
      message: 'The argument "domain" nests lists or objects more than 8 deep.',
      data: { code: 'MAX_INPUT_DEPTH_EXCEEDED', limit: 8 },
    });
    expect(sandboxCalls(gw)).toBe(calls);
    const graphql = await gw.query('query ($d: String!) { domainInfo(domain: $d) { domainName } }', {
      d: JSON.parse(nested(9)),
    });
    expect(graphql.status).toBe(400);
    expect(graphql.body.errors![0]!.extensions).toMatchObject({ code: 'MAX_INPUT_DEPTH_EXCEEDED', limit: 8 });
  });

  it('anywhere in a message, or as the batch itself: refused before the message is read', async () => {
    for (const body of [
      withDeep(message(1, 'tools/list', { _meta: { deep: 'DEEP' } }), nested(50_000)),
      withDeep({ ...message(1, 'ping'), extra: 'DEEP' }, nested(50_000)),
      nested(50_000),
      withDeep([message(1, 'ping'), message(2, 'tools/list', { cursor: 'DEEP' })], nested(9)),
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect((Array.isArray(res.body) ? res.body[0] : res.body)!.error).toMatchObject({
        code: -32602,
        data: { code: 'MAX_INPUT_DEPTH_EXCEEDED', limit: 8 },
      });
    }
  });

  it("an argument 8 deep is the tool's to judge (the GraphQL type check), not refused as too deep", async () => {
    const res = await post(withDeep(toolCall(1, 'domain_info', { domain: 'DEEP' }), nested(8)));
    expect(res.status).toBe(200);
    expect(res.body.result?.isError).toBe(true);
    expect(res.body.result!.content![0]!.text).toMatch(/BAD_USER_INPUT/);
  });
});

describe('client mistakes are invalid params (-32602), never internal errors', () => {
  const gw = forSuite(() => inProcessGateway({}));
  const post = (body: unknown) => postMcp(gw, body, 'unused');

  it.each([
    ['tool arguments as an array', toolCall(1, 'domain_info', ['hubspot.com'])],
    ['a tool name that is not a string', message(1, 'tools/call', { name: 5 })],
    ['tools/call without params', message(1, 'tools/call')],
    ['an unknown tool', toolCall(1, 'no_such_tool', {})],
    ['initialize without its params', message(1, 'initialize', { protocolVersion: 7 })],
    ['tools/list with a cursor that is not a string', message(1, 'tools/list', { cursor: 5 })],
  ])('%s', async (_what, body) => {
    const res = await post(body);
    expect(res.body.id).toBe(1);
    expect(res.body.error?.code).toBe(-32602);
  });
});
