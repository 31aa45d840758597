import { describe, expect, it } from 'vitest';
import { parseQuota, rateLimitHeaders, stateAt, windowAt } from '../../src/quota/window.js';

const at = (iso: string) => Date.parse(iso);

describe('quota windows', () => {
  it('are fixed UTC minutes, hours, days and calendar months', () => {
    const now = at('2026-02-14T13:45:30.250Z');
    expect(windowAt('minute', now)).toEqual({ start: at('2026-02-14T13:45:00Z'), end: at('2026-02-14T13:46:00Z') });
    expect(windowAt('hour', now)).toEqual({ start: at('2026-02-14T13:00:00Z'), end: at('2026-02-14T14:00:00Z') });
    expect(windowAt('day', now)).toEqual({ start: at('2026-02-14T00:00:00Z'), end: at('2026-02-15T00:00:00Z') });
    expect(windowAt('month', now)).toEqual({ start: at('2026-02-01T00:00:00Z'), end: at('2026-03-01T00:00:00Z') });
    // December's month ends with the year; a window's first instant belongs to it, its end to the next.
    expect(windowAt('month', at('2026-12-31T23:59:59.999Z')).end).toBe(at('2027-01-01T00:00:00Z'));
    expect(windowAt('day', at('2026-02-15T00:00:00Z')).start).toBe(at('2026-02-15T00:00:00Z'));
  });

  it('report what is left, the seconds to the reset (at least 1) and the window in seconds', () => {
    const spec = { limit: 5000, window: 'day' as const };
    expect(stateAt(spec, 790, at('2026-02-14T23:00:00Z'))).toEqual({
      limit: 5000,
      remaining: 4210,
      resetSeconds: 3600,
      windowSeconds: 86_400,
    });
    expect(stateAt(spec, 6000, at('2026-02-14T23:59:59.900Z'))).toMatchObject({ remaining: 0, resetSeconds: 1 });
    expect(stateAt({ limit: 10, window: 'month' }, 0, at('2026-02-10T00:00:00Z')).windowSeconds).toBe(28 * 86_400);
    expect(stateAt({ limit: 10, window: 'month' }, 0, at('2024-02-10T00:00:00Z')).windowSeconds).toBe(29 * 86_400);
    expect(stateAt({ limit: 10, window: 'minute' }, 3, at('2026-02-14T13:45:30.250Z'))).toEqual({
      limit: 10,
      remaining: 7,
      resetSeconds: 30,
      windowSeconds: 60,
    });
  });
});

describe('RateLimit headers (draft-ietf-httpapi-ratelimit-headers-10)', () => {
  it('name the "calls" policy with its quota and window, and what is left with the seconds to reset', () => {
    expect(rateLimitHeaders({ limit: 5000, remaining: 4210, resetSeconds: 3600, windowSeconds: 86_400 })).toEqual({
      'RateLimit-Policy': '"calls";q=5000;w=86400',
      RateLimit: '"calls";r=4210;t=3600',
    });
    expect(rateLimitHeaders({ limit: 100, remaining: 0, resetSeconds: 1, windowSeconds: 3600 })).toEqual({
      'RateLimit-Policy': '"calls";q=100;w=3600',
      RateLimit: '"calls";r=0;t=1',
    });
  });
});

describe('quota specs', () => {
  it('read N/window and none; refuse anything else', () => {
    expect(parseQuota('5000/day')).toEqual({ limit: 5000, window: 'day' });
    expect(parseQuota(' 20000 / Month ')).toEqual({ limit: 20000, window: 'month' });
    expect(parseQuota('none')).toBeNull();
    for (const bad of ['5000', '0/day', '-1/day', '5000/week', '1.5/hour', 'day/5000', '2000000000/day', '']) {
      expect(parseQuota(bad), bad).toHaveProperty('problem');
    }
  });
});
