import { Pool } from 'undici';

export interface Request {
  path: string;
  body: string;
  headers?: Record<string, string>;
}

export interface ThroughputResult {
  requestsPerSecond: number;
  errors: number;
  meanResponseBytes: number;
}

/**
 * A closed-loop load generator over keep-alive connections to 127.0.0.1: `concurrency` workers
 * each send the next request as soon as the last one answered, for `durationMs`.
 */
export async function throughput(origin: string, next: (i: number) => Request, concurrency: number, durationMs: number): Promise<ThroughputResult> {
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
        const request = next(counter++);
        try {
          const res = await pool.request({
            path: request.path,
            method: 'POST',
            headers: { 'content-type': 'application/json', ...request.headers },
            body: request.body,
          });
          const text = await res.body.text();
          bytes += text.length;
          if (res.statusCode !== 200 || text.includes('"errors"')) errors += 1;
        } catch {
          errors += 1;
        }
        done += 1;
      }
    }),
  );
  const elapsed = performance.now() - started;
  await pool.close();
  return { requestsPerSecond: (done / elapsed) * 1000, errors, meanResponseBytes: done ? bytes / done : 0 };
}

/** Median latency, in ms, of `count` requests sent one after another. */
export async function sequentialLatency(origin: string, next: (i: number) => Request, count: number): Promise<{ medianMs: number; errors: number }> {
  const pool = new Pool(origin, { connections: 1 });
  const samples: number[] = [];
  let errors = 0;
  for (let i = 0; i < count; i++) {
    const request = next(i);
    const started = performance.now();
    const res = await pool.request({
      path: request.path,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: request.body,
    });
    const text = await res.body.text();
    samples.push(performance.now() - started);
    if (res.statusCode !== 200 || text.includes('"errors"')) errors += 1;
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
        const request = requests[next++]!;
        const res = await pool.request({
          path: request.path,
          method: 'POST',
          headers: { 'content-type': 'application/json', ...request.headers },
          body: request.body,
        });
        const text = await res.body.text();
        if (res.statusCode !== 200 || text.includes('"errors"')) errors += 1;
      }
    }),
  );
  await pool.close();
  return errors;
}
