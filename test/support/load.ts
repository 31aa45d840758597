/** Seeded randomness, input distributions and latency figures for the load tests (overload, soak) and the bench. */

/** mulberry32: a small seeded PRNG, so that a run is replayable from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf (exponent s) over 0..n-1 by inverse CDF: a few inputs asked very often, a long tail asked rarely. */
export function zipf(n: number, random: () => number, s = 1): () => number {
  const cdf: number[] = [];
  let total = 0;
  for (let k = 1; k <= n; k++) {
    total += 1 / k ** s;
    cdf.push(total);
  }
  return () => {
    const u = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * Open-loop arrivals: a Poisson process at `perSecond` for `durationMs`, as offsets in ms from the
 * start. Known before the first request, so that no answer (or its absence) changes what is offered.
 */
export function poissonArrivals(perSecond: number, durationMs: number, random: () => number): number[] {
  const offsets: number[] = [];
  for (let t = 0; ; ) {
    t += (-Math.log(1 - random()) / perSecond) * 1000;
    if (t >= durationMs) return offsets;
    offsets.push(t);
  }
}

/** Runs `send(i)` at each offset from now (ms), without waiting for earlier ones; resolves when all have settled. */
export async function openLoop<T>(offsets: number[], send: (i: number) => Promise<T>): Promise<T[]> {
  const start = performance.now();
  const pending: Array<Promise<T>> = [];
  for (let i = 0; i < offsets.length; i++) {
    const wait = start + offsets[i]! - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send(i));
  }
  return Promise.all(pending);
}

/** The q-quantile (0..1) of `values`, nearest rank; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** One request of a replica test's load: when it ran, whether it came back right, and what came back. */
export interface Sample {
  started: number;
  ended: number;
  ok: boolean;
  detail: string;
}

type LookupBody = {
  data?: Record<string, { domainName?: string; username?: string } | null>;
  errors?: Array<{ extensions?: { code?: string } }>;
};

/**
 * The replica tests' mixed load: input `i` of the domain lookup (`domain`) or of the photo-social one,
 * posted to `url`; `ok` when `accept` takes the status, the body and the value the input should echo.
 */
export async function mixedLookup(
  url: string,
  i: number,
  domain: boolean,
  accept: (status: number, body: LookupBody, echoed: boolean) => boolean,
  headers: Record<string, string> = {},
): Promise<{ key: string; sample: Sample }> {
  const input = domain ? `d${i}.example.com` : `user${i}`;
  const query = domain
    ? `{ domainInfo(domain: "${input}") { domainName } }`
    : `{ photosocialProfile(username: "${input}") { username } }`;
  const started = Date.now();
  let ok = false;
  let detail = '';
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    const text = await res.text();
    detail = `${res.status} ${text.slice(0, 200)}`;
    const body = JSON.parse(text) as LookupBody;
    const value = body.data?.[domain ? 'domainInfo' : 'photosocialProfile'];
    ok = accept(res.status, body, (value?.domainName ?? value?.username) === input);
  } catch (error) {
    detail ||= String(error);
  }
  return {
    key: `${domain ? 'domain_info' : 'get_photosocial_profile'}:${input}`,
    sample: { started, ended: Date.now(), ok, detail },
  };
}
