import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Plugin } from 'graphql-yoga';
import { rejection } from '../security/errors.js';

/** The window over which the event loop's delay is judged; also the Retry-After of a refusal. */
const WINDOW_MS = 1000;

/**
 * How far this process's event loop falls behind: the longest delay in the last complete one-second
 * window (node:perf_hooks' monitorEventLoopDelay). The longest, not a percentile: a stall is one sample
 * among a hundred, which a 99th percentile can miss.
 */
export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private lastMaxMs = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly limitMs: number) {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.lastMaxMs = this.histogram.max / 1e6;
      this.histogram.reset();
    }, WINDOW_MS).unref();
  }

  /** The last window's longest delay, in milliseconds. */
  maxMs(): number {
    return this.lastMaxMs;
  }

  /** Whether new operations are refused now (the limit is set and the last window's delay exceeds it). */
  behind(): boolean {
    return this.limitMs > 0 && this.lastMaxMs > this.limitMs;
  }

  close(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}

/**
 * OVERLOADED (503, `Retry-After: 1`) for every new GraphQL request while the event loop is behind
 * (SHED_EVENT_LOOP_DELAY_MS): refused before its body is read, so it adds nothing to the backlog.
 * Probes still answer; /readyz reports `overloaded` (reason `event-loop-delay`).
 */
export function useEventLoopShedding(delay: EventLoopDelay, limitMs: number): Plugin {
  const retryAfter = WINDOW_MS / 1000;
  return {
    onRequestParse() {
      if (!delay.behind()) return;
      const behindMs = Math.round(delay.maxMs());
      throw rejection(
        'OVERLOADED',
        `The gateway is busy: its event loop is ${behindMs} ms behind (limit ${limitMs} ms); retry in ${retryAfter} s.`,
        503,
        {
          headers: { 'Retry-After': String(retryAfter) },
          extensions: { retryAfter },
        },
      );
    },
  };
}
