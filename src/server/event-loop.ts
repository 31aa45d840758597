import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';
import type { Plugin } from 'graphql-yoga';
import { rejection } from '../security/errors.js';

/** The window over which the event loop's delay is judged; also the Retry-After of a refusal. */
const WINDOW_MS = 1000;
/** The share of a window the loop spent running code, from which it counts as saturated... */
const SATURATED_UTILIZATION = 0.95;
/** ...when its stalls also reach this share of the limit: work queues behind them however short each is. */
const SATURATED_SHARE_OF_LIMIT = 0.1;

/**
 * How far this process's event loop falls behind: the longest delay in the last complete one-second
 * window (node:perf_hooks' monitorEventLoopDelay). The longest, not a percentile: a stall is one sample
 * among a hundred, which a 99th percentile can miss. A loop kept busy by stalls each shorter than the
 * limit (a costly request every 120 ms, say) never shows one long delay, yet every request waits behind
 * all of them: a window in which the loop ran code nearly all the time (event loop utilization) and its
 * stalls reached a tenth of the limit counts as behind too.
 */
export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private lastMaxMs = 0;
  private lastUtilization = 0;
  private utilizationMark: EventLoopUtilization = performance.eventLoopUtilization();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly limitMs: number) {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.lastMaxMs = this.histogram.max / 1e6;
      this.histogram.reset();
      const now = performance.eventLoopUtilization();
      this.lastUtilization = performance.eventLoopUtilization(now, this.utilizationMark).utilization;
      this.utilizationMark = now;
    }, WINDOW_MS).unref();
  }

  /** The last window's longest delay, in milliseconds. */
  maxMs(): number {
    return this.lastMaxMs;
  }

  /** Whether new operations are refused now: the limit is set and the last window's longest delay exceeds it, or the loop was saturated. */
  behind(): boolean {
    if (this.limitMs <= 0) return false;
    const saturated =
      this.lastUtilization >= SATURATED_UTILIZATION && this.lastMaxMs >= this.limitMs * SATURATED_SHARE_OF_LIMIT;
    return this.lastMaxMs > this.limitMs || saturated;
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
      const why =
        behindMs > limitMs
          ? `its event loop is ${behindMs} ms behind (limit ${limitMs} ms)`
          : `its event loop was busy all of the last second, in stalls of up to ${behindMs} ms`;
      throw rejection('OVERLOADED', `The gateway is busy: ${why}; retry in ${retryAfter} s.`, 503, {
        headers: { 'Retry-After': String(retryAfter) },
        extensions: { retryAfter },
      });
    },
  };
}
