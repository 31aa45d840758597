import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  events: ReceivedEvent[];
}

interface ReceivedEvent {
  name: string;
  attributes: Record<string, unknown>;
}

const attributesOf = (list: any[] | undefined): Record<string, unknown> =>
  Object.fromEntries((list ?? []).map((a: any) => [a.key, value(a.value)]));

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Every request body as received, to check what never leaves the gateway. */
  bodies: string[];
  contentTypes: string[];
  close(): Promise<void>;
}

function value(v: Record<string, any>): unknown {
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(value);
  return undefined;
}

/** An OTLP/HTTP receiver (http/json) on a random port: POST /v1/traces, spans decoded. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    bodies.push(text);
    contentTypes.push(String(req.headers['content-type']));
    if (req.url === '/v1/traces' && req.headers['content-type']?.includes('json')) {
      const body = JSON.parse(text);
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              status: span.status ?? {},
              events: (span.events ?? []).map((event: any) => ({
                name: event.name,
                attributes: attributesOf(event.attributes),
              })),
            });
          }
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `check` holds (spans are exported in batches, every 5 s unless a test's configuration says less). */
export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for spans');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
