import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { handParsedParams, parsedParams } from '../../src/parsed-params.js';

type Parser = (request: Request) => unknown;

/** Runs the plugin's onRequestParse as Yoga does, after Yoga's own parser plugins chose `chosen`; returns the parser then in force. */
function parserAfter(request: Request, handed: Record<string, unknown> | null, chosen: Parser | undefined): Parser | undefined {
  const req = {} as IncomingMessage;
  if (handed) handParsedParams(req, handed);
  let parser = chosen;
  const hook = parsedParams().onRequestParse as (payload: unknown) => void;
  hook({ request, requestParser: chosen, setRequestParser: (next: Parser) => (parser = next), serverContext: { req } });
  return parser;
}

const yogaJsonParser: Parser = () => 'parsed again by Yoga';
const post = (contentType: string) => new Request('http://gateway.test/graphql', { method: 'POST', headers: { 'content-type': contentType }, body: '{}' });

describe('parsedParams: Yoga takes the body the replay route already parsed', () => {
  it.each(['application/json', 'application/json; charset=utf-8'])('for a POST of %s, Yoga parses nothing again', (type) => {
    const params = { query: '{ hello }' };
    const parser = parserAfter(post(type), params, yogaJsonParser);
    expect(parser).not.toBe(yogaJsonParser);
    expect(parser!(post(type))).toBe(params);
  });

  it.each(['Application/JSON', 'application/json , text/plain', 'application/jsonx', 'application/graphql+json', 'text/plain'])(
    'leaves Yoga its own parser (or none) for a POST of %s, exactly where graphql-yoga would not take it for JSON',
    (type) => {
      expect(parserAfter(post(type), { query: '{ hello }' }, yogaJsonParser)).toBe(yogaJsonParser);
      expect(parserAfter(post(type), { query: '{ hello }' }, undefined)).toBeUndefined();
    },
  );

  it('changes nothing for a request the route did not parse, or one no Yoga parser took', () => {
    expect(parserAfter(post('application/json'), null, yogaJsonParser)).toBe(yogaJsonParser);
    expect(parserAfter(post('application/json'), { query: '{ hello }' }, undefined)).toBeUndefined();
    const get = new Request('http://gateway.test/graphql?query=%7B%20hello%20%7D', { headers: { 'content-type': 'application/json' } });
    expect(parserAfter(get, { query: '{ hello }' }, yogaJsonParser)).toBe(yogaJsonParser);
  });
});
