import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect } from 'vitest';
import { acceptsGzip } from '../src/server/compression.js';
import { test } from './support/fixtures.js';
import { incrementalQuery } from './support/incremental.js';

const FULL_PROFILE_PART =
  '{ photosocialProfile(username: "natgeo") { username fullName biography externalUrl profilePicUrl profilePicUrlHd bioLinks { url title lynxUrl } hdProfilePicVersions { url width height } flags { account { isBusiness } } } }';
const SMALL = '{ domainInfo(domain: "example.com") { domainName } }';

/** The raw bytes and headers of a POST, as sent: undici's request() does not decode. */
async function raw(url: string, query: string, acceptEncoding?: string) {
  const res = await request(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
    },
    body: JSON.stringify({ query }),
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

describe('response compression', () => {
  test('a large result is sent gzipped to a client that accepts gzip, and decodes to the identity body', async ({
    servedSandbox: sandbox,
  }) => {
    const identity = await raw(sandbox.url, FULL_PROFILE_PART);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(1024);
    expect(identity.headers.vary).toContain('Accept-Encoding');
    const expected = JSON.parse(identity.body.toString()).data;

    for (const accept of ['br, gzip', 'gzip', 'gzip;q=1, br;q=0.5', 'br;q=0, *', 'deflate, gzip, br, zstd']) {
      const res = await raw(sandbox.url, FULL_PROFILE_PART, accept);
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.body.length).toBeLessThan(identity.body.length / 2);
      expect(JSON.parse(gunzipSync(res.body).toString()).data).toEqual(expected);
      expect(res.headers['cache-control']).toBe(identity.headers['cache-control']);
    }
  });

  test('a compressible response from an allowed origin varies on both the Origin and the encoding', async ({
    startGateway,
  }) => {
    const gw = await startGateway({ CORS_ORIGINS: 'https://app.example' });
    const res = await request(`${gw.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://app.example', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ query: FULL_PROFILE_PART }),
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(String(res.headers.vary).split(/,\s*/)).toEqual(['Origin', 'Accept-Encoding']);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(JSON.parse(gunzipSync(body).toString()).data.photosocialProfile.username).toBe('natgeo');
  });

  test('identity when nothing acceptable is offered', async ({ servedSandbox: sandbox }) => {
    for (const accept of ['identity', 'gzip;q=0, br;q=0', 'deflate', 'br', '*;q=0']) {
      const res = await raw(sandbox.url, FULL_PROFILE_PART, accept);
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(JSON.parse(res.body.toString()).data.photosocialProfile.username).toBe('natgeo');
    }
  });

  test('a small response is sent as it is, even when gzip is accepted', async ({ servedSandbox: sandbox }) => {
    const res = await raw(sandbox.url, SMALL, 'br, gzip');
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary ?? '').not.toContain('Accept-Encoding');
  });

  test('the GraphiQL page (megabytes of HTML) is compressed', async ({ servedSandbox: sandbox }) => {
    const get = (acceptEncoding: string) =>
      request(`${sandbox.url}/graphql`, { headers: { accept: 'text/html', 'accept-encoding': acceptEncoding } });
    const plain = await get('identity');
    const html = Buffer.from(await plain.body.arrayBuffer());
    expect(html.length).toBeGreaterThan(1_000_000);
    const zipped = await get('gzip');
    const body = Buffer.from(await zipped.body.arrayBuffer());
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(body.length).toBeLessThan(html.length / 3);
    expect(gunzipSync(body).equals(html)).toBe(true);
  });

  test('@defer over multipart/mixed is not compressed, so each part still goes out when it is ready', async ({
    servedSandbox: sandbox,
  }) => {
    const response = await incrementalQuery(
      sandbox.url,
      `{ company(domain: "hubspot.com") { name } ... @defer { photosocialProfile(username: "natgeo") { username biography } } }`,
      { headers: { 'accept-encoding': 'br, gzip' } },
    );
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.payloads.length).toBeGreaterThan(1);
  });

  test('Accept-Encoding parsing', () => {
    expect(acceptsGzip(null)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip(' GZIP ;q=0.8 , br;q=0.7')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('gzip;q=abc')).toBe(true);
  });
});
