import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, loadExamples } from '../../src/server/examples.js';
import { hashApiKey } from '../../src/security/api-keys.js';
import { persistedDocumentsOf } from '../../src/security/trusted-documents.js';
import { trustedDocuments } from '../../src/security/trusted-documents-cli.js';
import { startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { incrementalQuery, merged } from '../support/incremental.js';
import { sandboxCalls } from '../security/support.js';

const deferredExample = loadExamples().find((example) => example.name.includes('deferred'))!;

describe('incremental requests go through the same security as any other', () => {
  it('depth counts the fields inside deferred fragments (inline and spread): too deep → 400 MAX_DEPTH_EXCEEDED, no lookup', async () => {
    const gw = await startGateway({ MAX_DEPTH: '3' });
    try {
      for (const query of [
        '{ company(domain: "hubspot.com") { name ... @defer { financialProfile { company { name } } } } }',
        '{ company(domain: "hubspot.com") { name ...Deep @defer } } fragment Deep on Company { financialProfile { company { name } } }',
      ]) {
        const before = sandboxCalls(gw);
        const res = await incrementalQuery(gw.url, query);
        expect(res.status).toBe(400);
        expect(res.payloads[0]!.body.errors?.[0]?.extensions?.code).toBe('MAX_DEPTH_EXCEEDED');
        expect(sandboxCalls(gw) - before).toBe(0);
      }
      // Within the limit, the same shape runs.
      const ok = await incrementalQuery(
        gw.url,
        '{ company(domain: "hubspot.com") { name ... @defer { financialProfile { symbol } } } }',
      );
      expect(ok.status).toBe(200);
      expect(merged(ok.payloads).data).toEqual({ company: { name: 'Hubspot', financialProfile: { symbol: 'HUBS' } } });
    } finally {
      await gw.close();
    }
  });

  it('the client rate limit counts incremental requests: past it → 429 RATE_LIMITED, no lookup', async () => {
    const gw = await startGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '1' });
    try {
      const first = await incrementalQuery(gw.url, deferredExample.query);
      expect(first.status).toBe(200);
      const before = sandboxCalls(gw);
      const second = await incrementalQuery(gw.url, deferredExample.query, { transport: 'sse' });
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(sandboxCalls(gw) - before).toBe(0);
    } finally {
      await gw.close();
    }
  });

  describe('trusted documents', () => {
    let gw: RunningGateway;
    beforeAll(async () => {
      const file = join(tmpdir(), `lookup-graph-trusted-defer-${process.pid}.json`);
      writeFileSync(file, JSON.stringify(trustedDocuments([EXAMPLES_DIR])));
      gw = await startGateway({ TRUSTED_DOCUMENTS_FILE: file });
      rmSync(file); // read at start-up
    });
    afterAll(() => gw.close());

    it('a trusted deferred document runs by its hash, incrementally', async () => {
      // The id a client holds: the hash of the document as codegen (and the CLI) print it, not of the example's source text.
      const [id] = Object.keys(persistedDocumentsOf([deferredExample.query]));
      const body = JSON.stringify({
        extensions: { persistedQuery: { version: 1, sha256Hash: id!.replace(/^sha256:/, '') } },
      });
      const res = await incrementalQuery(gw.url, '', { body });
      expect(res.status).toBe(200);
      expect(res.payloads.length).toBeGreaterThan(1);
      expect(res.payloads[0]!.body.data!.company.name).toBe('Hubspot');
      expect(merged(res.payloads).data.videositeTranscript.title).toEqual(expect.any(String));
    });

    it('the same deferred document sent as raw text → 400 PERSISTED_QUERY_ONLY, no lookup', async () => {
      const before = sandboxCalls(gw);
      const res = await incrementalQuery(gw.url, deferredExample.query);
      expect(res.status).toBe(400);
      expect(res.payloads[0]!.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
      expect(sandboxCalls(gw) - before).toBe(0);
    });
  });

  describe('API keys and CSRF', () => {
    const KEY = 'lg_live_defer_test_key_0123456789abcdef';
    let up: FaultUpstream;
    let gw: RunningGateway;
    beforeAll(async () => {
      up = await startFaultUpstream();
      gw = await startGateway(
        upstreamEnv(up, { NODE_ENV: 'production', GATEWAY_AUTH: 'api-key', GATEWAY_API_KEY_HASHES: hashApiKey(KEY) }),
      );
    });
    afterAll(async () => {
      await gw.close();
      await up.close();
    });

    it('an incremental request without a key → 401 UNAUTHENTICATED, no upstream call', async () => {
      const res = await incrementalQuery(gw.url, deferredExample.query);
      expect(res.status).toBe(401);
      expect(res.payloads[0]!.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(up.calls).toHaveLength(0);
    });

    it('an incremental request as a form POST → 403 CSRF_HEADER_REQUIRED, no upstream call', async () => {
      const res = await gw.fetch(`/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'multipart/mixed', 'x-api-key': KEY },
        body: `query=${encodeURIComponent(deferredExample.query)}`,
      });
      expect(res.status).toBe(403);
      // The refusal comes in the transport the client asked for (here one multipart part).
      expect(await res.text()).toContain('"code":"CSRF_HEADER_REQUIRED"');
      expect(up.calls).toHaveLength(0);
    });
  });
});
