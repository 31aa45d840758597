/**
 * A client for incremental delivery over real HTTP: reads multipart/mixed or text/event-stream
 * payloads as they arrive, with the time each one arrived.
 */
export type Transport = 'multipart' | 'sse';

export interface Payload {
  body: {
    data?: Record<string, any> | null;
    errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, any> }>;
    incremental?: Array<{
      data?: Record<string, any> | null;
      items?: unknown[];
      path: Array<string | number>;
      label?: string;
      errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, any> }>;
    }>;
    hasNext?: boolean;
    extensions?: Record<string, any>;
  };
  /** Milliseconds from sending the request to this payload's arrival. */
  at: number;
}

export interface IncrementalResponse {
  status: number;
  headers: Headers;
  payloads: Payload[];
}

export interface IncrementalOptions {
  transport?: Transport;
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The whole JSON body to send instead of { query, variables }. */
  body?: string;
  /** Called with each payload as it arrives; returning true hangs up (the client disconnects). */
  onPayload?: (payload: Payload) => boolean | undefined;
  /** Hangs up after this long (ms) if the stream has not ended: for streams that stay open (`@live`). */
  hangUpAfterMs?: number;
  /** Sends the request instead of the global fetch, e.g. in-process through `gateway.yoga.fetch` (then `url` is any origin). */
  fetch?: (url: string, init: RequestInit) => Promise<Response> | Response;
}

const ACCEPT: Record<Transport, string> = { multipart: 'multipart/mixed', sse: 'text/event-stream' };

export async function incrementalQuery(
  url: string,
  query: string,
  options: IncrementalOptions = {},
): Promise<IncrementalResponse> {
  const transport = options.transport ?? 'multipart';
  const controller = new AbortController();
  const started = Date.now();
  const res = await (options.fetch ?? fetch)(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT[transport], ...options.headers },
    body: options.body ?? JSON.stringify({ query, variables: options.variables }),
    signal: controller.signal,
  });
  const payloads: Payload[] = [];
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/mixed') && !type.startsWith('text/event-stream')) {
    // A single JSON result (a refusal): one payload.
    const text = await res.text();
    payloads.push({ body: text ? JSON.parse(text) : {}, at: Date.now() - started });
    return { status: res.status, headers: res.headers, payloads };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let hungUp = false;
  const take = (json: string) => {
    const payload: Payload = { body: JSON.parse(json), at: Date.now() - started };
    payloads.push(payload);
    if (options.onPayload?.(payload) === true) hungUp = true;
  };
  const timer =
    options.hangUpAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          hungUp = true;
          void reader.cancel().catch(() => undefined);
        }, options.hangUpAfterMs);
  try {
    while (!hungUp) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        if (hungUp) return { done: true as const, value: undefined };
        throw error;
      });
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      buffer = transport === 'sse' ? drainSse(buffer, take) : drainMultipart(buffer, take);
    }
  } finally {
    clearTimeout(timer);
    if (hungUp) controller.abort();
  }
  return { status: res.status, headers: res.headers, payloads };
}

/** multipart/mixed as Yoga writes it (boundary "-"): each part is headers, a blank line, then JSON. */
function drainMultipart(buffer: string, take: (json: string) => void): string {
  for (;;) {
    const start = buffer.indexOf('\r\n\r\n');
    if (start < 0) return buffer;
    const end = buffer.indexOf('\r\n---', start + 4);
    if (end < 0) return buffer;
    take(buffer.slice(start + 4, end));
    buffer = buffer.slice(end + 2);
  }
}

/** text/event-stream: `event: next` events carry the payloads; `event: complete` ends. */
function drainSse(buffer: string, take: (json: string) => void): string {
  for (;;) {
    const end = buffer.indexOf('\n\n');
    if (end < 0) return buffer;
    const event = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const lines = event.split('\n');
    if (lines.includes('event: next')) {
      take(
        lines
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n'),
      );
    }
  }
}

/** The payloads merged into one result, as a client would show it: data at each path, all errors. */
export function merged(payloads: Payload[]): {
  data: Record<string, any>;
  errors: NonNullable<Payload['body']['errors']>;
  labels: string[];
} {
  const data = structuredClone(payloads[0]?.body.data ?? {}) as Record<string, any>;
  const errors = [...(payloads[0]?.body.errors ?? [])];
  const labels: string[] = [];
  for (const payload of payloads.slice(1)) {
    for (const part of payload.body.incremental ?? []) {
      if (part.label) labels.push(part.label);
      errors.push(...(part.errors ?? []));
      if (part.items) {
        const list = part.path.slice(0, -1).reduce((node: any, key) => node?.[key], data) as unknown[] | undefined;
        if (list) list.splice(Number(part.path.at(-1)), part.items.length, ...part.items);
      } else if (part.data) {
        const target = part.path.reduce((node: any, key) => node?.[key], data) as Record<string, any> | undefined;
        if (target) deepMerge(target, part.data);
      }
    }
  }
  return { data, errors, labels };
}

function deepMerge(target: Record<string, any>, source: Record<string, any>): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (existing && value && typeof existing === 'object' && typeof value === 'object' && !Array.isArray(value))
      deepMerge(existing, value);
    else target[key] = value;
  }
}
