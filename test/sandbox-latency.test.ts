import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { latencyOf, LATENCY_PROFILES } from '../src/sandbox/latency.js';
import { startSandbox } from '../src/sandbox/server.js';
import { configProblems } from './support/config.js';

describe('sandbox latency (SANDBOX_LATENCY)', () => {
  it('is none by default, so tests stay fast', () => {
    expect(loadConfig({}).sandboxLatency).toEqual({ defaultMs: 0, byAction: {} });
  });

  it('one number delays every action', () => {
    const latency = loadConfig({ SANDBOX_LATENCY: '700' }).sandboxLatency;
    expect(latencyOf(latency, 'domain_info')).toBe(700);
    expect(latencyOf(latency, 'get_videosite_transcript')).toBe(700);
  });

  it('per action by short or full name, `*` for the rest', () => {
    const latency = loadConfig({
      SANDBOX_LATENCY: 'transcript:2500, photosocial:1200,get_company_object:30,*:5',
    }).sandboxLatency;
    expect(latency).toEqual({
      defaultMs: 5,
      byAction: { get_videosite_transcript: 2500, get_photosocial_profile: 1200, get_company_object: 30 },
    });
    expect(latencyOf(latency, 'domain_info')).toBe(5);
  });

  it('a named profile, adjusted action by action', () => {
    const latency = loadConfig({ SANDBOX_LATENCY: 'realistic,transcript:4000' }).sandboxLatency;
    expect(latencyOf(latency, 'get_videosite_transcript')).toBe(4000);
    expect(latencyOf(latency, 'get_photosocial_profile')).toBe(
      LATENCY_PROFILES.realistic!.byAction.get_photosocial_profile,
    );
  });

  it.each([
    [{ SANDBOX_LATENCY: 'slowish' }, /^SANDBOX_LATENCY must be fast or realistic, milliseconds .*; got "slowish"$/],
    [{ SANDBOX_LATENCY: 'soon' }, /^SANDBOX_LATENCY must be fast or realistic, milliseconds .*; got "soon"$/],
    [{ SANDBOX_LATENCY: '70000' }, /got "70000"$/],
    [{ SANDBOX_LATENCY: 'transcript:2500,podcast:10' }, /"podcast" is not an action$/],
    [{ SANDBOX_LATENCY: 'transcript:-1' }, /"transcript:-1" is not name:milliseconds$/],
    [{ SANDBOX_LATENCY: 'transcript:1:2' }, /"transcript:1:2" is not name:milliseconds$/],
  ])('rejects %j with a clear config error', (env, problem) => {
    const problems = configProblems(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });

  it('the sandbox delays each action by its own latency', async () => {
    const sandbox = await startSandbox({ latency: { defaultMs: 0, byAction: { get_videosite_transcript: 400 } } });
    const call = async (action: string, body: Record<string, unknown>) => {
      const started = Date.now();
      const res = await fetch(`${sandbox.url}/v1/action/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      await res.text();
      return Date.now() - started;
    };
    try {
      expect(
        await call('get_videosite_transcript', { url: 'https://www.videosite.example/watch?v=qW3eR7tY1uI' }),
      ).toBeGreaterThanOrEqual(390);
      expect(await call('domain_info', { domain: 'example.com' })).toBeLessThan(390);
    } finally {
      await sandbox.close();
    }
  });
});
