import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessGateway, type TestGateway } from '../support/gateway.js';
import { postMcp } from './support.js';

const toolCall = (id: number | string, name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

const requestLines = (gw: TestGateway) =>
  gw.logs
    .map(
      (line) =>
        JSON.parse(line) as {
          msg: string;
          request?: { operation: string | null; status: number; errorCodes?: string[] };
        },
    )
    .filter((line) => line.msg === 'graphql request');

describe('a tool call through the one pipeline', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await inProcessGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '0', MAX_BATCH_OPERATIONS: '5' });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('two clients numbering their calls alike each get their own answer', async () => {
    const [first, second] = await Promise.all([
      postMcp(gw, toolCall(1, 'domain_info', { domain: 'first-client.example' })),
      postMcp(gw, toolCall(1, 'domain_info', { domain: 'second-client.example' })),
    ]);
    const answers = [await first.json(), await second.json()] as Array<{
      id: number;
      result: { structuredContent: { domainInfo: { domainName: string } } };
    }>;
    expect(answers.map((answer) => answer.id)).toEqual([1, 1]);
    expect(answers.map((answer) => answer.result.structuredContent.domainInfo.domainName)).toEqual([
      'first-client.example',
      'second-client.example',
    ]);
  });

  it('is one request in the request log, under its operation', async () => {
    const before = requestLines(gw).length;
    const res = await postMcp(gw, toolCall('a', 'photosocial_profile', { username: 'logged-once' }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe('a');
    const lines = requestLines(gw).slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.request).toMatchObject({ operation: 'PhotosocialProfile', status: 200 });
  });

  it('the calls of a batch are answered in one array, in order, each a request of its own', async () => {
    const before = requestLines(gw).length;
    const res = await postMcp(
      gw,
      `[${toolCall(7, 'domain_info', { domain: 'batch-one.example' })},${toolCall(8, 'search_schema', { words: ['registrar'] })}]`,
    );
    const answers = (await res.json()) as Array<{
      id: number;
      result: { isError?: boolean; structuredContent: Record<string, unknown> };
    }>;
    expect(answers.map((answer) => answer.id)).toEqual([7, 8]);
    expect(answers[0]!.result.structuredContent).toMatchObject({ domainInfo: { domainName: 'batch-one.example' } });
    expect(answers[1]!.result.isError).toBeFalsy();
    // search_schema makes no GraphQL request; the lookup makes one.
    expect(
      requestLines(gw)
        .slice(before)
        .map((line) => line.request?.operation),
    ).toEqual(['DomainInfo']);
  });
});

describe('a tool call the pipeline refuses', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await inProcessGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '1' });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('is a tool error with the code and when to retry, over HTTP 200 (a JSON-RPC answer, not a transport failure)', async () => {
    expect((await postMcp(gw, toolCall(1, 'domain_info', { domain: 'allowed.example' }))).status).toBe(200);
    const res = await postMcp(gw, toolCall(2, 'domain_info', { domain: 'refused.example' }));
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { isError: boolean; content: Array<{ text: string }> } };
    expect(result.isError).toBe(true);
    const { errors } = JSON.parse(result.content[0]!.text) as { errors: Array<{ code: string; whatToDo: string }> };
    expect(errors[0]).toMatchObject({ code: 'RATE_LIMITED' });
    expect(errors[0]!.whatToDo).toMatch(/^Retry after \d+ seconds\.$/);
    expect(requestLines(gw).at(-1)!.request).toMatchObject({ errorCodes: ['RATE_LIMITED'] });
  });
});
