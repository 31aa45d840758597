import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway, type Tuning } from '../support/gateway.js';
import { freePort } from '../support/processes.js';

/** A collector that takes connections and never answers, the worst case for an exporter. */
async function silentCollector(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const QUERY = (i: number) => `{ domainInfo(domain: "traced-${i % 40}.example") { domainName registrar { name } } }`;

describe('tracing with an OTLP collector that is down or never answers', () => {
  let collector: Awaited<ReturnType<typeof silentCollector>>;
  let refusedPort: number;
  // The exporter's own timeout (OTEL_EXPORTER_OTLP_TIMEOUT, read by the SDK from the environment) is 10 s,
  // and closing each gateway waited that long for its stuck export. At 2 s an export still hangs for the
  // whole of its timeout (the collector never answers, so each batch hangs again): the requests below are
  // all answered while one is stuck, and the file closes in seconds rather than twenty.
  const timeoutBefore = process.env.OTEL_EXPORTER_OTLP_TIMEOUT;
  beforeAll(async () => {
    process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '2000';
    collector = await silentCollector();
    refusedPort = await freePort();
  });
  afterAll(async () => {
    await collector.close();
    if (timeoutBefore === undefined) delete process.env.OTEL_EXPORTER_OTLP_TIMEOUT;
    else process.env.OTEL_EXPORTER_OTLP_TIMEOUT = timeoutBefore;
  });

  const unlimited = { CLIENT_RATE_LIMIT_PER_MINUTE: '0' };
  /** Exports every 50 ms (the constant is 5 s): the collector is asked often while the test runs. */
  const QUICK_EXPORT: Tuning = { telemetry: { tracing: { scheduledDelayMillis: 50 } } };
  const untraced = forSuite(() => inProcessGateway(unlimited));
  const hanging = forSuite(() =>
    inProcessGateway({ ...unlimited, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }, QUICK_EXPORT),
  );
  const refused = forSuite(() =>
    inProcessGateway({ ...unlimited, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${refusedPort}` }, QUICK_EXPORT),
  );

  it('answers every request exactly as without tracing, while the exporter is stuck', async () => {
    const strip = (body: Record<string, any>) => ({
      data: body.data,
      errors: body.errors,
      calls: body.extensions?.gateway?.upstreamCalls,
    });
    // In batches of 4 (each gateway sees 4 lookups at once, inside one client's fair share of the upstream).
    for (let batch = 0; batch < 30; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, async (_, j) => {
          const i = batch * 4 + j;
          const [plain, stuck, down] = await Promise.all([
            untraced.query(QUERY(i)),
            hanging.query(QUERY(i)),
            refused.query(QUERY(i)),
          ]);
          return {
            plain: strip(plain.body),
            stuck: strip(stuck.body),
            down: strip(down.body),
            statuses: [plain.status, stuck.status, down.status],
          };
        }),
      );
      for (const answer of answers) {
        expect(answer.statuses).toEqual([200, 200, 200]);
        expect(answer.stuck).toEqual(answer.plain);
        expect(answer.down).toEqual(answer.plain);
      }
      if (batch % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 120));
    }
    // The exporter did try: the silent collector was reached, and none of its hangs reached a client.
    expect(collector.connections()).toBeGreaterThan(0);
  });

  it('adds no latency: with the exporter stuck or refused, requests take as long as untraced ones', async () => {
    const timings = { plain: [] as number[], stuck: [] as number[], down: [] as number[] };
    const timed = async (gateway: typeof untraced, into: number[], i: number) => {
      const started = performance.now();
      const res = await gateway.query(QUERY(i));
      into.push(performance.now() - started);
      expect(res.status).toBe(200);
    };
    // One at a time, interleaved, so the three see the same machine; the queue is full of unexported spans by now.
    for (let i = 0; i < 150; i++) {
      await timed(untraced, timings.plain, i);
      await timed(hanging, timings.stuck, i);
      await timed(refused, timings.down, i);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // Spans cost some CPU; waiting on the collector would cost its timeout (seconds).
    expect(median(timings.stuck)).toBeLessThan(median(timings.plain) + 2);
    expect(median(timings.down)).toBeLessThan(median(timings.plain) + 2);
  });
});
