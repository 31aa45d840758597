import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway } from '../support/gateway.js';
import { fitAnswer } from '../../src/mcp/fit.js';
import { toolResult, toolResultJson } from '../../src/mcp/answer.js';
import { call, inProcessClient, postMcp, textOf } from './support.js';

/** A connected in-process client for the suite, over a sandbox gateway with these settings. */
function clientFor(env: Record<string, string>) {
  const gw = forSuite(() => inProcessGateway(env));
  const client = forSuite(async () => inProcessClient(gw));
  return { gw, client: client as Client };
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('answers that fit: MCP_MAX_RESULT_TOKENS', () => {
  describe('a search over the bound', () => {
    const { gw, client } = clientFor({ MCP_MAX_RESULT_TOKENS: '250' });
    it('comes back within it, valid, the trimming stated with where to get the rest', async () => {
      const full = await gw.query('query ($q: String!) { videositeSearch(query: $q) { videos { title } } }', {
        q: 'bridge engineering',
      });
      const total = full.body.data!.videositeSearch.videos.length;
      const result = await call(client, 'videosite_search', { query: 'bridge engineering' });
      expect(result.isError).toBeFalsy();
      const text = textOf(result);
      expect(bytes(text)).toBeLessThanOrEqual(250 * 4);
      const answer = JSON.parse(text);
      expect(answer).toEqual(result.structuredContent);
      const shown = answer.videositeSearch.videos.length;
      expect(shown).toBeLessThan(total);
      expect(answer._trimmed).toContain(`${shown} of ${total} videos shown at videositeSearch.videos.`);
      expect(answer._trimmed.join(' ')).toMatch(/videosite_transcript|more specific/);
      // Whole values only: every link kept is a whole URL.
      for (const video of answer.videositeSearch.videos) expect(() => new URL(video.link)).not.toThrow();
    });
  });

  describe('a transcript over the bound', () => {
    const { gw, client } = clientFor({ MCP_MAX_RESULT_TOKENS: '100' });
    it('is cut at a word, within the bound, the cut stated', async () => {
      const url = 'https://www.videosite.example/watch?v=qW3eR7tY1uI';
      const full = (await gw.query('query ($url: String!) { videositeTranscript(url: $url) { text } }', { url })).body
        .data!.videositeTranscript.text as string;
      const result = await call(client, 'videosite_transcript', { url });
      const text = textOf(result);
      expect(bytes(text)).toBeLessThanOrEqual(100 * 4);
      const answer = JSON.parse(text);
      const cut: string = answer.videositeTranscript.text;
      expect(cut.endsWith('…')).toBe(true);
      const kept = cut.slice(0, -1);
      expect(kept.length).toBeGreaterThan(0);
      expect(full.startsWith(kept)).toBe(true);
      expect(full[kept.length]).toMatch(/\s/); // at a word
      expect(answer._trimmed[0]).toBe(
        `videositeTranscript.text cut at a word after ${kept.length} of ${full.length} characters.`,
      );
      expect(answer._trimmed[1]).toMatch(/MCP_MAX_RESULT_TOKENS/);
    });
  });
});

/** Arguments for every tool the sandbox gateway lists (all of each tool's arguments). */
const EVERY_TOOL: Record<string, Record<string, unknown>> = {
  company: { domain: 'hubspot.com' },
  company_with_stock: { domain: 'hubspot.com' },
  financial_profiles: { symbols: ['AAPL', 'NKE'] },
  domain_info: { domain: 'hubspot.com' },
  crm_owners: { portal: '12345' },
  microblog_posts: { query: 'bridges', first: 10 },
  news: { query: 'bridges', dateRange: 'PAST_WEEK' },
  photosocial_profile: { username: 'natgeo' },
  professionalnet_profile: { handle: 'someone' },
  videosite_channel: { url: '@mkbhd' },
  videosite_search: { query: 'bridge engineering' },
  videosite_transcript: { url: 'https://www.videosite.example/watch?v=qW3eR7tY1uI' },
  search_schema: { words: ['company'] },
  execute: { query: '{ company(domain: "hubspot.com") { name description location } }' },
};

describe('every tool at the smallest bound, MCP_MAX_RESULT_TOKENS=100', () => {
  const { client } = clientFor({ MCP_MAX_RESULT_TOKENS: '100' });
  it('answers within 400 bytes, with data, what was left out stated', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(EVERY_TOOL).sort());
    for (const [name, args] of Object.entries(EVERY_TOOL)) {
      const result = await call(client, name, args);
      const text = textOf(result);
      expect(result.isError, `${name}: ${text}`).toBeFalsy();
      expect(bytes(text), `${name}: ${text}`).toBeLessThanOrEqual(400);
      const answer = JSON.parse(text);
      expect(answer).toEqual(result.structuredContent);
      // Something of the data is kept beside the notes.
      expect(Object.keys(answer).filter((key) => key !== '_trimmed').length, name).toBeGreaterThan(0);
      if (answer._trimmed) expect(answer._trimmed.at(-1), name).toMatch(/^To get the rest/);
    }
  });
});

describe('fitAnswer: the bound holds however little can be cut', () => {
  const shortFields = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field${i}`, `v${i}`]));
  it('leaves whole fields out, largest first, and says how many', () => {
    const fitted = fitAnswer({ item: { ...shortFields, note: 'x'.repeat(30) } }, 400, 'To get the rest, ask less.');
    expect(bytes(fitted.json)).toBeLessThanOrEqual(400);
    expect(JSON.parse(fitted.json)).toEqual(fitted.value);
    const item = fitted.value.item as Record<string, string>;
    // The largest goes first; every value kept is whole.
    expect(item.note).toBeUndefined();
    for (const [key, value] of Object.entries(item)) expect(value).toBe(shortFields[key]);
    const left = 61 - Object.keys(item).length;
    expect(fitted.value._trimmed).toEqual([
      `${left} fields left out to fit (the tool's outputSchema lists them all).`,
      'To get the rest, ask less.',
    ]);
  });
  it('names the fields it left out when the names fit', () => {
    const fitted = fitAnswer({ item: { name: 'n', location: 'l'.repeat(300) } }, 200, 'More: ask.');
    expect(fitted.value).toEqual({ item: { name: 'n' }, _trimmed: ['Left out to fit: item.location.', 'More: ask.'] });
  });
  it('at a bound nothing fits in, says so within the bound', () => {
    const long = 'To get the rest, '.repeat(10);
    const fitted = fitAnswer({ item: { a: 'x'.repeat(200) } }, 120, long);
    expect(bytes(fitted.json)).toBeLessThanOrEqual(120);
    expect(fitted.value).toEqual({
      _trimmed: ['The answer is larger than 120 bytes (MCP_MAX_RESULT_TOKENS) even trimmed: nothing of it fits.'],
    });
  });
});

describe('errors an agent can act on', () => {
  const { client } = clientFor({});

  it('a failed lookup: isError with the code, the message and what to do', async () => {
    const result = await call(client, 'financial_profiles', { symbols: ['ZZZZ'] });
    expect(result.isError).toBe(true);
    const { errors } = JSON.parse(textOf(result));
    expect(errors[0]).toMatchObject({ code: 'NOT_FOUND', path: 'financialProfiles.0' });
    expect(errors[0].whatToDo).toMatch(/spelling/);
    expect(result._meta).toMatchObject({ gateway: { sandbox: true } });
  });

  it('partial data comes with its errors listed', async () => {
    const result = await call(client, 'financial_profiles', { symbols: ['AAPL', 'ZZZZ'] });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      financialProfiles: Array<{ symbol: string } | null>;
      _errors: Array<Record<string, string>>;
    };
    expect(answer.financialProfiles[0]!.symbol).toBe('AAPL');
    expect(answer.financialProfiles[1]).toBeNull();
    expect(answer._errors).toEqual([expect.objectContaining({ code: 'NOT_FOUND', path: 'financialProfiles.1' })]);
  });

  it('an argument of the wrong type names the argument and the type expected', async () => {
    const result = await call(client, 'company', { domain: 42 });
    expect(result.isError).toBe(true);
    const { errors } = JSON.parse(textOf(result));
    expect(errors[0]).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'domain' });
    expect(errors[0].message).toMatch(/^The argument "domain" must be String!/);
  });

  it('an argument the gateway rejects names it too', async () => {
    const result = await call(client, 'company', { domain: 'not a domain' });
    expect(result.isError).toBe(true);
    const { errors } = JSON.parse(textOf(result));
    expect(errors[0]).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(errors[0].whatToDo).toMatch(/domain/);
  });

  it('a missing or unknown argument is a tool error naming it, before any request', async () => {
    const missing = JSON.parse(textOf(await call(client, 'company', {})));
    expect(missing.errors[0]).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'domain',
      message: 'The argument "domain" (String!) is required.',
    });
    const unknown = JSON.parse(textOf(await call(client, 'company', { domain: 'hubspot.com', url: 'x' })));
    expect(unknown.errors[0]).toMatchObject({ argument: 'url', whatToDo: 'This tool takes domain: String!.' });
  });

  it('an unknown tool is a JSON-RPC error (a protocol fault), not a tool result', async () => {
    await expect(call(client, 'no_such_tool', {})).rejects.toThrow(/-32602.*Unknown tool "no_such_tool"/);
  });
});

describe('a tool result as JSON', () => {
  const data = { company: { name: 'Ünïcode “quoted” \\ co', tags: ['a', 'b'], employees: 12 } };
  it('reads the same as the result serialised whole, for remembered data with and without _meta, trimmed or not', () => {
    for (const maxBytes of [10_000, 60]) {
      for (const gateway of [undefined, { upstreamCalls: 0, lookups: [{ key: 'x' }] }]) {
        const body = { data, ...(gateway ? { extensions: { gateway } } : {}) };
        // Twice: the second answer of the same data object is the one fitted and serialised once.
        for (const result of [toolResult(body, maxBytes, 'more'), toolResult(body, maxBytes, 'more')])
          expect(JSON.parse(toolResultJson(result))).toEqual(JSON.parse(JSON.stringify(result)));
      }
    }
  });

  it('is serialised whole when the result was changed after it was made', () => {
    const result = toolResult({ data }, 10_000, 'more');
    const changed = { ...result, content: [{ type: 'text' as const, text: 'other' }] };
    expect(JSON.parse(toolResultJson(changed))).toEqual(JSON.parse(JSON.stringify(changed)));
  });
});

describe('what a new agent meets', () => {
  const { gw, client } = clientFor({});
  const post = async (message: Record<string, unknown>) =>
    (await (
      await gw.fetch('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, ...message }),
      })
    ).json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };

  it('an unknown tool says so once, without the SDK prefix repeated in its message', async () => {
    const reply = await post({ method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toBe('Unknown tool "no_such_tool": tools/list gives the tools of this server.');
  });

  it('a template of a list reads comma-separated values, as its description says', async () => {
    const reply = await post({ method: 'resources/read', params: { uri: 'lookup://financial-profiles/AAPL,NKE' } });
    const [content] = (reply.result as { contents: Array<{ text: string }> }).contents;
    const profiles = JSON.parse(content!.text).financialProfiles as Array<{ symbol: string }>;
    expect(profiles.map((profile) => profile.symbol)).toEqual(['AAPL', 'NKE']);
  });

  it('execute with an invalid query points at search_schema', async () => {
    const result = await call(client, 'execute', { query: '{ company(domain: "x.com") { nosuchfield } }' });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result)).errors[0].whatToDo).toMatch(/search_schema/);
  });

  it('initialize has instructions; logging/setLevel is answered', async () => {
    const init = await post({
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.result?.instructions).toMatch(/SANDBOX/);
    expect(init.result?.capabilities).toMatchObject({ logging: {}, resources: {}, prompts: {}, completions: {} });
    expect((await post({ method: 'logging/setLevel', params: { level: 'warning' } })).result).toEqual({});
  });

  it('completion suggests the keys this client looked up, none of another client', async () => {
    await call(client, 'company', { domain: 'https://www.completion-one.example/x' });
    const complete = (value: string) => ({
      method: 'completion/complete',
      params: { ref: { type: 'ref/resource', uri: 'lookup://company/{domain}' }, argument: { name: 'domain', value } },
    });
    const mine = (await client.complete(complete('completion').params as never)).completion.values;
    expect(mine).toContain('completion-one.example');
    // Another client (other credentials): nothing of the first one's.
    const other = await inProcessClient(gw, { authorization: 'Bearer someone-else-0000000000' });
    expect((await other.complete(complete('completion').params as never)).completion.values).toEqual([]);
  });

  it('two clients numbering their messages alike, at once: each answered with its own lookup, and completion keeps them apart', async () => {
    const read = (credentials: string, domain: string) =>
      postMcp(
        gw,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'resources/read',
          params: { uri: `lookup://company/${domain}` },
        }),
        { authorization: `Bearer ${credentials}` },
      );
    const asked = Array.from({ length: 8 }, (_, i) => ({
      credentials: i % 2 === 0 ? 'client-even-000000000000' : 'client-odd-0000000000000',
      domain: `same-id-${i}.example`,
    }));
    const replies = await Promise.all(asked.map(({ credentials, domain }) => read(credentials, domain)));
    for (const [i, reply] of replies.entries()) {
      const body = (await reply.json()) as { id: number; result: { contents: Array<{ uri: string; text: string }> } };
      expect(body.id).toBe(1);
      expect(body.result.contents[0]!.uri).toBe(`lookup://company/${asked[i]!.domain}`);
      expect(body.result.contents[0]!.text).toContain(asked[i]!.domain);
    }
    const completed = async (credentials: string) => {
      const reply = await postMcp(
        gw,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'completion/complete',
          params: {
            ref: { type: 'ref/resource', uri: 'lookup://company/{domain}' },
            argument: { name: 'domain', value: 'same-id' },
          },
        }),
        { authorization: `Bearer ${credentials}` },
      );
      return ((await reply.json()) as { result: { completion: { values: string[] } } }).result.completion.values;
    };
    expect((await completed('client-even-000000000000')).sort()).toEqual([
      'same-id-0.example',
      'same-id-2.example',
      'same-id-4.example',
      'same-id-6.example',
    ]);
    expect((await completed('client-odd-0000000000000')).sort()).toEqual([
      'same-id-1.example',
      'same-id-3.example',
      'same-id-5.example',
      'same-id-7.example',
    ]);
  });
});
