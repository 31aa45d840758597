import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACTIONS } from '../../src/sandbox/answers.js';
import {
  json,
  startFaultUpstream,
  upstreamEnv,
  type FaultUpstream,
  type RecordedCall,
} from '../support/fault-upstream.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { incrementalQuery, merged, type Transport } from '../support/incremental.js';

/** The slow lookup: seconds, as a transcript of the live service can take. */
const SLOW_MS = 3_000;
const VIDEO = 'https://www.videosite.example/watch?v=qW3eR7tY1uI';

/** A page: the company with its financial profile first; the video transcript deferred. */
const PAGE = `query Page {
  company(domain: "hubspot.com") { name ticker financialProfile { symbol price } }
  financialProfiles(symbols: ["AAPL"]) { symbol }
  ... @defer(label: "slow") {
    videositeTranscript(url: "${VIDEO}") { title }
    company(domain: "hubspot.com") { financialProfile { symbol marketCap } }
    more: financialProfiles(symbols: ["NKE", "hubs"]) { symbol }
  }
}`;

/** Answers from the sandbox's sample data, each action after its own delay (ms), or as `override` says. */
function sampleUpstream(
  up: FaultUpstream,
  delays: Record<string, number>,
  override?: (call: RecordedCall, res: Parameters<typeof json>[0]) => boolean,
) {
  up.handle(async (call, _req, res) => {
    if (override?.(call, res)) return;
    const delay = delays[call.action] ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (res.destroyed) return;
    json(res, 200, { status: 200, ...SANDBOX_ACTIONS[call.action]!.respond(call.body) });
  });
}

async function operationsWith(gw: RunningGateway, outcome: string): Promise<number> {
  const text = await (await gw.fetch(`/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`lookup_graph_graphql_operations_total{outcome="${outcome}"}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function okOperations(gw: RunningGateway): Promise<number> {
  const text = await (await gw.fetch(`/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('lookup_graph_graphql_operations_total{outcome="ok"}'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('@defer over real HTTP: the fast part first, the slow part last, one call per lookup', () => {
  let up: FaultUpstream;
  let gw: RunningGateway;
  beforeAll(async () => {
    up = await startFaultUpstream();
    gw = await startGateway(upstreamEnv(up));
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });
  afterEach(() => {
    up.calls.length = 0;
  });

  it.each<[Transport, string]>([
    ['multipart', 'multipart/mixed'],
    ['sse', 'text/event-stream'],
  ])(
    '%s: first payload long before the slow lookup, last payload with it, upstream calls = distinct lookups',
    async (transport, mediaType) => {
      sampleUpstream(up, { get_videosite_transcript: SLOW_MS });
      const okBefore = await okOperations(gw);
      const res = await incrementalQuery(gw.url, PAGE, { transport });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(mediaType);

      const [first, ...rest] = res.payloads;
      const last = rest.at(-1)!;
      // The fast data, without waiting for the slow lookup (a small fraction of its time).
      expect(first!.at).toBeLessThan(SLOW_MS / 3);
      expect(first!.body.hasNext).toBe(true);
      expect(first!.body.data).toEqual({
        company: { name: 'Hubspot', ticker: 'HUBS', financialProfile: { symbol: 'HUBS', price: expect.any(Number) } },
        financialProfiles: [{ symbol: 'AAPL' }],
      });
      expect(first!.body.extensions?.gateway).toBeUndefined();
      // The slow data last, with the operation's final usage.
      expect(last.at).toBeGreaterThanOrEqual(SLOW_MS - 50);
      expect(last.body.hasNext).toBe(false);
      const { data, errors, labels } = merged(res.payloads);
      expect(errors).toEqual([]);
      expect(labels).toContain('slow');
      expect(data.videositeTranscript.title).toEqual(expect.any(String));
      expect(data.company.financialProfile).toEqual({
        symbol: 'HUBS',
        price: expect.any(Number),
        marketCap: expect.any(Number),
      });
      expect(data.more).toEqual([{ symbol: 'NKE' }, { symbol: 'HUBS' }]);

      // One call per distinct lookup across the initial and the deferred part: the company once, the
      // transcript once, and every stock symbol of the operation (initial and deferred) in one call.
      expect(up.calls.map((call) => call.action).sort()).toEqual([
        'company_financial_profile',
        'get_company_object',
        'get_videosite_transcript',
      ]);
      const financial = up.calls.find((call) => call.action === 'company_financial_profile')!;
      // Counted once, as one ok operation, when the last payload is out.
      expect(await okOperations(gw)).toBe(okBefore + 1);
      expect(financial.body.company.split(', ').sort()).toEqual(['AAPL', 'HUBS', 'NKE']);
      const gateway = last.body.extensions!.gateway;
      expect(gateway.upstreamCalls).toBe(3);
      expect(gateway.cost).toEqual({ estimated: expect.any(Number), budget: 50 });
      expect(gateway.lookups.map((l: { action: string }) => l.action).sort()).toEqual([
        'company_financial_profile',
        'company_financial_profile',
        'company_financial_profile',
        'get_company_object',
        'get_videosite_transcript',
      ]);
    },
  );

  it('@stream: financialProfiles items come in payloads of their own, all symbols still one call', async () => {
    sampleUpstream(up, {});
    const res = await incrementalQuery(
      gw.url,
      '{ financialProfiles(symbols: ["AAPL", "NKE", "HUBS"]) @stream(initialCount: 1) { symbol } }',
    );
    expect(res.payloads[0]!.body.data).toEqual({ financialProfiles: [{ symbol: 'AAPL' }] });
    const streamed = res.payloads.slice(1).flatMap((p) => p.body.incremental ?? []);
    expect(streamed.map((part) => part.path)).toEqual([
      ['financialProfiles', 1],
      ['financialProfiles', 2],
    ]);
    expect(merged(res.payloads).data.financialProfiles).toEqual([
      { symbol: 'AAPL' },
      { symbol: 'NKE' },
      { symbol: 'HUBS' },
    ]);
    expect(up.calls).toHaveLength(1);
    expect(res.payloads.at(-1)!.body.extensions!.gateway.upstreamCalls).toBe(1);
  });

  it('a failing deferred lookup gives its coded error, with its path, in its own payload; the rest completes', async () => {
    sampleUpstream(up, {}, (call, res) => {
      if (call.action !== 'get_videosite_transcript') return false;
      json(res, 400, {
        status: 400,
        response: null,
        error: "The requested page doesn't exist or there are no translations available for the video.",
      });
      return true;
    });
    const res = await incrementalQuery(
      gw.url,
      `{
      company(domain: "hubspot.com") { name }
      ... @defer(label: "video") { videositeTranscript(url: "${VIDEO}") { title } }
      ... @defer(label: "photo") { photosocialProfile(username: "@natgeo") { username } }
    }`,
    );
    expect(res.payloads[0]!.body.data).toEqual({ company: { name: 'Hubspot' } });
    expect(res.payloads[0]!.body.errors).toBeUndefined();
    const parts = res.payloads.slice(1).flatMap((p) => p.body.incremental ?? []);
    const video = parts.find((part) => part.label === 'video')!;
    expect(video.data).toEqual({ videositeTranscript: null });
    expect(video.errors).toEqual([
      expect.objectContaining({
        path: ['videositeTranscript'],
        extensions: expect.objectContaining({ code: 'NOT_FOUND' }),
      }),
    ]);
    const photo = parts.find((part) => part.label === 'photo')!;
    expect(photo.data!.photosocialProfile.username).toBe('natgeo');
    expect(photo.errors).toBeUndefined();
    expect(res.payloads.at(-1)!.body.hasNext).toBe(false);
  });

  it('a client that accepts neither incremental transport is refused before any lookup (406, coded)', async () => {
    sampleUpstream(up, {});
    const res = await gw.query(PAGE);
    expect(res.status).toBe(406);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('INCREMENTAL_DELIVERY_NOT_ACCEPTED');
    expect(res.body.data).toBeUndefined();
    expect(up.calls).toHaveLength(0);
  });

  it('the cost estimate covers deferred parts: over the budget, nothing is looked up', async () => {
    const tight = await startGateway(upstreamEnv(up, { COST_BUDGET: '2' }));
    try {
      const res = await incrementalQuery(tight.url, PAGE);
      expect(res.status).toBe(400);
      expect(res.payloads[0]!.body.errors?.[0]?.extensions?.code).toBe('COST_LIMIT_EXCEEDED');
      expect(up.calls).toHaveLength(0);
    } finally {
      await tight.close();
    }
  });

  it('operations without @defer/@stream keep the single JSON response (graphql-jit path)', async () => {
    sampleUpstream(up, {});
    const res = await gw.query('{ company(domain: "hubspot.com") { name } }');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/graphql-response+json');
    expect(res.body.data).toEqual({ company: { name: 'Hubspot' } });
    expect(res.body.extensions!.gateway.upstreamCalls).toBe(1);
  });
});

describe('@defer with the operation deadline and client cancellation', () => {
  let up: FaultUpstream;
  let gw: RunningGateway;
  beforeAll(async () => {
    up = await startFaultUpstream();
    gw = await startGateway(upstreamEnv(up, { OPERATION_TIMEOUT_MS: '1000' }), 0, { resilience: { maxRetries: 0 } });
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });
  afterEach(() => {
    up.calls.length = 0;
  });

  it('a deferred lookup past the operation deadline ends with UPSTREAM_TIMEOUT in its payload; the fast part came first', async () => {
    sampleUpstream(up, { get_videosite_transcript: SLOW_MS });
    const res = await incrementalQuery(
      gw.url,
      `{
      company(domain: "hubspot.com") { name }
      ... @defer { videositeTranscript(url: "${VIDEO}") { title } }
    }`,
    );
    expect(res.payloads[0]!.body.data).toEqual({ company: { name: 'Hubspot' } });
    const last = res.payloads.at(-1)!;
    expect(last.at).toBeLessThan(SLOW_MS);
    expect(last.body.hasNext).toBe(false);
    const parts = res.payloads.slice(1).flatMap((p) => p.body.incremental ?? []);
    expect(parts[0]!.errors).toEqual([
      expect.objectContaining({
        path: ['videositeTranscript'],
        extensions: expect.objectContaining({ code: 'UPSTREAM_TIMEOUT' }),
      }),
    ]);
  });

  it('a client that hangs up after the first payload cancels the deferred call still in flight: the upstream sees its socket close', async () => {
    const abortedBefore = await operationsWith(gw, 'aborted');
    const closedEarly: string[] = [];
    up.handle(async (call, _req, res) => {
      if (call.action === 'get_videosite_transcript') {
        // Never answered: only the gateway closing the connection ends this call.
        res.on('close', () => {
          if (!res.writableEnded) closedEarly.push(call.action);
        });
        return;
      }
      json(res, 200, { status: 200, ...SANDBOX_ACTIONS[call.action]!.respond(call.body) });
    });
    const res = await incrementalQuery(
      gw.url,
      `{
      company(domain: "hubspot.com") { name }
      ... @defer { videositeTranscript(url: "${VIDEO}") { title } }
    }`,
      { onPayload: () => true },
    );
    expect(res.payloads).toHaveLength(1);
    expect(res.payloads[0]!.body.data).toEqual({ company: { name: 'Hubspot' } });
    // The gateway aborts the transcript call as soon as the client is gone, well before the deadline.
    await expect.poll(() => closedEarly, { timeout: 400, interval: 10 }).toEqual(['get_videosite_transcript']);
    expect(up.calls.map((call) => call.action).sort()).toEqual(['get_company_object', 'get_videosite_transcript']);
    // The operation is counted, as one its client hung up on.
    await expect
      .poll(async () => operationsWith(gw, 'aborted'), { timeout: 2000, interval: 20 })
      .toBe(abortedBefore + 1);
    // And its log line says so, with what was delivered before.
    const hungUp = () => gw.logs.map((line) => JSON.parse(line)).filter((line) => line.stream?.clientHungUp === true);
    await expect.poll(() => hungUp().length, { timeout: 2000, interval: 20 }).toBe(1);
    expect(hungUp()[0]).toMatchObject({
      msg: 'graphql stream ended early: the client hung up',
      stream: { payloads: 1, clientHungUp: true },
    });
  });
});
