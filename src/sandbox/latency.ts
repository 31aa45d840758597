/**
 * Per-action latency of the built-in sandbox, so that slow lookups (and what @defer does about them)
 * can be felt without the real service. The default is no delay, for tests.
 *
 *   SANDBOX_LATENCY=realistic                         a named profile (below)
 *   SANDBOX_LATENCY=700                               every action, 700 ms
 *   SANDBOX_LATENCY=transcript:2500,photosocial:1200[,*:100]
 *                                                     per action (short or full action name), `*` for the rest
 *   SANDBOX_LATENCY=realistic,transcript:4000         entries apply in order: a profile adjusted action by action
 */
import { SANDBOX_TIMINGS } from './timings.js';

export interface SandboxLatency {
  /** Delay of an action with no entry of its own, in ms. */
  defaultMs: number;
  /** Delay by upstream action name, in ms. */
  byAction: Record<string, number>;
}

/** Short names for the actions, as SANDBOX_LATENCY may spell them (each descriptor's sandbox.shortName). */
const ACTION_SHORT_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries(SANDBOX_TIMINGS).map(([action, sandbox]) => [sandbox.shortName, action]),
);

/**
 * Named profiles. `realistic` gives the orders of magnitude the live service shows (hundreds of
 * milliseconds for records, seconds for transcripts, large profiles and searches); it is an
 * illustration for demos, not a measurement of the service.
 */
export const LATENCY_PROFILES: Record<string, SandboxLatency> = {
  fast: { defaultMs: 0, byAction: {} },
  realistic: {
    defaultMs: 400,
    byAction: Object.fromEntries(
      Object.entries(SANDBOX_TIMINGS).map(([action, sandbox]) => [action, sandbox.realisticLatencyMs]),
    ),
  },
};

const MAX_MS = 60_000;

/**
 * Reads SANDBOX_LATENCY: comma-separated entries, each a profile name, milliseconds for every action, or
 * `name:milliseconds`, applied in order (so `realistic,transcript:4000` adjusts a profile). Each problem is
 * pushed as one clear sentence.
 */
export function readSandboxLatency(setting: string | undefined, problems: string[]): SandboxLatency {
  const latency: SandboxLatency = { defaultMs: 0, byAction: {} };
  const bad = (what: string) =>
    problems.push(
      `SANDBOX_LATENCY must be ${Object.keys(LATENCY_PROFILES).join(' or ')}, milliseconds from 0 to ${MAX_MS} for every action ("700") or per action ("transcript:2500,photosocial:1200,*:100"; actions: ${Object.keys(ACTION_SHORT_NAMES).join(', ')} or their full names), comma-separated; ${what}`,
    );
  const ms = (text: string): number | null => (/^\d+$/.test(text) && Number(text) <= MAX_MS ? Number(text) : null);

  for (const entry of (setting ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const profile = LATENCY_PROFILES[entry.toLowerCase()];
    if (profile) {
      latency.defaultMs = profile.defaultMs;
      latency.byAction = { ...profile.byAction };
      continue;
    }
    if (!entry.includes(':')) {
      const all = ms(entry);
      if (all === null) bad(`got "${entry.slice(0, 40)}"`);
      else {
        latency.defaultMs = all;
        latency.byAction = {};
      }
      continue;
    }
    const [name = '', value = '', ...rest] = entry.split(':').map((part) => part.trim());
    const delay = ms(value);
    if (rest.length > 0 || delay === null) {
      bad(`"${entry.slice(0, 40)}" is not name:milliseconds`);
      continue;
    }
    if (name === '*') {
      latency.defaultMs = delay;
      continue;
    }
    const action =
      ACTION_SHORT_NAMES[name.toLowerCase()] ?? (SANDBOX_TIMINGS[name.toLowerCase()] ? name.toLowerCase() : undefined);
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
