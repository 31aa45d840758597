/**
 * Row (i) of `npm run bench`: a page with one slow lookup (a video transcript) beside fast ones, asked
 * with @defer over multipart/mixed and without it. Each sample asks for a company and a video nobody
 * asked for before, so every lookup goes upstream.
 */
import { median } from './load.js';

/** The page: a company and its financial profile, and a transcript (the slow lookup). */
function page(domain: string, video: string, deferred: boolean): string {
  const slow = `videositeTranscript(url: "https://www.videosite.example/watch?v=${video}") { title }`;
  return `query Page { company(domain: "${domain}") { name ticker financialProfile { symbol price } } ${deferred ? `... @defer { ${slow} }` : slow} }`;
}

export interface DeferTimings {
  /** With @defer: until the first payload (the fast data). */
  firstPayloadMs: number;
  /** With @defer: until the last payload (everything). */
  lastPayloadMs: number;
  /** Without @defer: until the single response. */
  wholeResponseMs: number;
  samples: number;
  /** Requests that failed or were not incremental. */
  failures: number;
}

export async function measureDefer(origin: string, samples: number, tag: string): Promise<DeferTimings> {
  const first: number[] = [];
  const last: number[] = [];
  const whole: number[] = [];
  let failures = 0;
  for (let i = 0; i < samples; i++) {
    const video = (id: string) =>
      `${tag}${id}${i}`
        .replace(/[^A-Za-z0-9]/g, '')
        .padEnd(11, '0')
        .slice(-11);
    // With @defer.
    let started = Date.now();
    let res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
      body: JSON.stringify({ query: page(`defer-${tag}-${i}.example.com`, video('d'), true) }),
    });
    let firstAt: number | null = null;
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (firstAt === null && text.includes('"hasNext":true')) firstAt = Date.now() - started;
    }
    if (res.status !== 200 || firstAt === null || !text.includes('"hasNext":false') || text.includes('"errors"'))
      failures += 1;
    else {
      first.push(firstAt);
      last.push(Date.now() - started);
    }
    // Without it: one response when everything is there.
    started = Date.now();
    res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: page(`whole-${tag}-${i}.example.com`, video('w'), false) }),
    });
    const body = await res.text();
    if (res.status !== 200 || body.includes('"errors"')) failures += 1;
    else whole.push(Date.now() - started);
  }
  return {
    firstPayloadMs: median(first),
    lastPayloadMs: median(last),
    wholeResponseMs: median(whole),
    samples,
    failures,
  };
}
