import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Pool } from 'undici';

export interface Request {
  path: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

export interface ThroughputResult {
  requestsPerSecond: number;
  requests: number;
  errors: number;
  meanResponseBytes: number;
}

const ERRORS = Buffer.from('"errors"');
/** An MCP tool result that is an error (its errors are inside an escaped text block). */
const TOOL_ERROR = Buffer.from('"isError":true');

/**
 * Sends one request: whether it succeeded (200, no GraphQL errors or MCP tool error, compressed bodies decoded) and the bytes
 * that came back. Through undici's dispatch handler rather than request(): no body stream and no decoding
 * of the text, so a large answer costs the load generator little more than its bytes, and the rows measure
 * the server rather than this process (which shares its core with the sandbox).
 */
function post(pool: Pool, request: Request): Promise<{ ok: boolean; bytes: number }> {
  return new Promise((resolve) => {
    let status = 0;
    let encoding: string | null = null;
    let bytes = 0;
    const chunks: Buffer[] = [];
    const failed = () => resolve({ ok: false, bytes: 0 });
    const handler = {
      onConnect() {},
      onHeaders(statusCode: number, rawHeaders: Buffer[]) {
        status = statusCode;
        for (let i = 0; i < rawHeaders.length; i += 2) {
          if (rawHeaders[i]!.toString('latin1').toLowerCase() === 'content-encoding')
            encoding = rawHeaders[i + 1]!.toString('latin1');
        }
        return true;
      },
      onData(chunk: Buffer) {
        bytes += chunk.length;
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        try {
          const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
          const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ ok: status === 200 && !body.includes(ERRORS) && !body.includes(TOOL_ERROR), bytes });
        } catch {
          failed(); // a body that does not decompress
        }
      },
      onError: failed,
    };
    try {
      pool.dispatch(
        {
          path: request.path,
          method: 'POST',
          headers: { 'content-type': 'application/json', ...request.headers },
          body: request.body,
        },
        handler,
      );
    } catch {
      failed(); // a request undici refuses before sending
    }
  });
}

/**
 * A closed-loop load generator over keep-alive connections to 127.0.0.1: `concurrency` workers
 * each send the next request as soon as the last one answered, for `durationMs`.
 */
export async function throughput(
  origin: string,
  next: (i: number) => Request,
  concurrency: number,
  durationMs: number,
): Promise<ThroughputResult> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  let done = 0;
  let errors = 0;
  let bytes = 0;
  let counter = 0;
  const until = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const result = await post(pool, next(counter++));
        bytes += result.bytes;
        if (!result.ok) errors += 1;
        done += 1;
      }
    }),
  );
  const elapsed = performance.now() - started;
  await pool.close();
  return {
    requestsPerSecond: (done / elapsed) * 1000,
    requests: done,
    errors,
    meanResponseBytes: done ? bytes / done : 0,
  };
}

/** Median latency, in ms, of `count` requests sent one after another. */
export async function sequentialLatency(
  origin: string,
  next: (i: number) => Request,
  count: number,
): Promise<{ medianMs: number; errors: number }> {
  const pool = new Pool(origin, { connections: 1 });
  const samples: number[] = [];
  let errors = 0;
  for (let i = 0; i < count; i++) {
    const request = next(i);
    const started = performance.now();
    const result = await post(pool, request);
    samples.push(performance.now() - started);
    if (!result.ok) errors += 1;
  }
  await pool.close();
  return { medianMs: median(samples), errors };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Sends exactly these requests with `concurrency` workers; returns the failures. */
export async function runAll(origin: string, requests: Request[], concurrency: number): Promise<number> {
  const pool = new Pool(origin, { connections: concurrency });
  let next = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        if (!(await post(pool, requests[next++]!)).ok) errors += 1;
      }
    }),
  );
  await pool.close();
  return errors;
}

/** The p-th percentile (0-100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * An open loop: requests start at a fixed rate whatever the answers do (as independent users arrive),
 * for `durationMs`; returns every request's latency in ms. Unlike the closed loop, a slow answer does
 * not slow the arrivals, so queueing shows in the tail.
 */
export async function openLoop(
  origin: string,
  next: (i: number) => Request,
  ratePerSecond: number,
  durationMs: number,
): Promise<{ latencies: number[]; errors: number }> {
  const pool = new Pool(origin, { connections: 128, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const total = Math.floor((ratePerSecond * durationMs) / 1000);
  const send = async (i: number) => {
    const request = next(i);
    const sent = performance.now();
    if (!(await post(pool, request)).ok) errors += 1;
    latencies.push(performance.now() - sent);
  };
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send(i));
  }
  await Promise.all(pending);
  await pool.close();
  return { latencies, errors };
}
