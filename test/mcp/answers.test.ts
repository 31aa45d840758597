import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway } from '../support/gateway.js';
import { call, inProcessClient, textOf } from './support.js';

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
