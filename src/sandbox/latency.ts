/**
 * Per-action latency of the built-in sandbox, so that slow lookups (and what @defer does about them)
 * can be felt without the real service. The default is no delay, for tests.
 *
 *   SANDBOX_LATENCY=realistic                         a named profile (below)
 *   SANDBOX_LATENCY_MS=700                            every action, 700 ms
 *   SANDBOX_LATENCY_MS=transcript:2500,photosocial:1200[,*:100]
 *                                                     per action (short or full action name), `*` for the rest
 *
 * SANDBOX_LATENCY_MS is applied over the profile, so a profile can be adjusted action by action.
 */
import { SANDBOX_TIMINGS } from './timings.js';

export interface SandboxLatency {
  /** Delay of an action with no entry of its own, in ms. */
  defaultMs: number;
  /** Delay by upstream action name, in ms. */
  byAction: Record<string, number>;
}

/** Short names for the actions, as SANDBOX_LATENCY_MS may spell them (each descriptor's sandbox.shortName). */
const ACTION_SHORT_NAMES: Record<string, string> = Object.fromEntries(Object.entries(SANDBOX_TIMINGS).map(([action, sandbox]) => [sandbox.shortName, action]));

/**
 * Named profiles. `realistic` gives the orders of magnitude the live service shows (hundreds of
 * milliseconds for records, seconds for transcripts, large profiles and searches); it is an
 * illustration for demos, not a measurement of the service.
 */
export const LATENCY_PROFILES: Record<string, SandboxLatency> = {
  fast: { defaultMs: 0, byAction: {} },
  realistic: {
    defaultMs: 400,
    byAction: Object.fromEntries(Object.entries(SANDBOX_TIMINGS).map(([action, sandbox]) => [action, sandbox.realisticLatencyMs])),
  },
};

const MAX_MS = 60_000;

/** Reads SANDBOX_LATENCY and SANDBOX_LATENCY_MS; each problem is pushed as one clear sentence. */
export function readSandboxLatency(profileSetting: string | undefined, msSetting: string | undefined, problems: string[]): SandboxLatency {
  const profileName = profileSetting?.trim() || 'fast';
  const profile = LATENCY_PROFILES[profileName];
  if (!profile) problems.push(`SANDBOX_LATENCY must be one of ${Object.keys(LATENCY_PROFILES).join(', ')}, got "${profileName.slice(0, 40)}"`);
  const latency: SandboxLatency = { defaultMs: profile?.defaultMs ?? 0, byAction: { ...profile?.byAction } };

  const raw = msSetting?.trim();
  if (!raw) return latency;
  const bad = (what: string) =>
    problems.push(
      `SANDBOX_LATENCY_MS must be milliseconds from 0 to ${MAX_MS} for every action ("700") or per action ("transcript:2500,photosocial:1200,*:100"; actions: ${Object.keys(ACTION_SHORT_NAMES).join(', ')} or their full names); ${what}`,
    );
  const ms = (text: string): number | null => (/^\d+$/.test(text) && Number(text) <= MAX_MS ? Number(text) : null);

  if (!raw.includes(':')) {
    const all = ms(raw);
    if (all === null) bad(`got "${raw.slice(0, 40)}"`);
    else return { defaultMs: all, byAction: {} };
    return latency;
  }
  for (const entry of raw.split(',')) {
    const [name = '', value = '', ...rest] = entry.split(':').map((part) => part.trim());
    const delay = ms(value);
    if (rest.length > 0 || delay === null) {
      bad(`"${entry.trim().slice(0, 40)}" is not name:milliseconds`);
      continue;
    }
    if (name === '*') {
      latency.defaultMs = delay;
      continue;
    }
    const action = ACTION_SHORT_NAMES[name.toLowerCase()] ?? (SANDBOX_TIMINGS[name.toLowerCase()] ? name.toLowerCase() : undefined);
    if (!action) {
      bad(`"${name.slice(0, 40)}" is not an action`);
      continue;
    }
    latency.byAction[action] = delay;
  }
  return latency;
}

/** The delay of one action under a latency setting. */
export function latencyOf(latency: SandboxLatency, action: string): number {
  return latency.byAction[action] ?? latency.defaultMs;
}
