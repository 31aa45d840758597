// Own: the overloaded flag with hysteresis that /readyz and the metrics read; 60 lines, no library state to adapt.
import type { ShedReason } from '../../kernel/errors.js';

/** After the last lookup shed for load, this long passes before the gateway reports itself not overloaded. */
const OVERLOAD_CLEAR_MS = 5_000;

export interface OverloadStatus {
  /** Lookups were shed for load (the gateway's slots, not one client's share) within the last OVERLOAD_CLEAR_MS. */
  overloaded: boolean;
  /** Since when, while overloaded (ISO 8601). */
  since: string | null;
}

/** One overload episode, as told to `onChange` when it ends. */
export interface OverloadEpisode {
  durationMs: number;
  shed: number;
}

/**
 * Whether this process is shedding load, with hysteresis: overloaded from the first lookup shed for
 * the gateway's own load until OVERLOAD_CLEAR_MS pass without another, so a probe or a dashboard does
 * not flicker with every burst. A client held to its own share says nothing about the process.
 */
export class OverloadState {
  private since: number | undefined;
  private lastShedAt = Number.NEGATIVE_INFINITY;
  private shedInEpisode = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Told when an episode starts (no argument) and when it ends. */
    private readonly onChange: (ended?: OverloadEpisode) => void = () => undefined,
    private readonly clearAfterMs = OVERLOAD_CLEAR_MS,
  ) {}

  shed(reason: ShedReason): void {
    if (reason === 'client-share') return;
    this.lastShedAt = Date.now();
    this.shedInEpisode += 1;
    if (this.since !== undefined) return;
    this.since = this.lastShedAt;
    this.onChange();
    this.armClear(this.clearAfterMs);
  }

  status(): OverloadStatus {
    return this.since === undefined
      ? { overloaded: false, since: null }
      : { overloaded: true, since: new Date(this.since).toISOString() };
  }

  close(): void {
    clearTimeout(this.timer);
  }

  /** One timer per episode, moved on to the last shed's clearing time when it fires early. */
  private armClear(ms: number): void {
    this.timer = setTimeout(() => {
      const left = this.lastShedAt + this.clearAfterMs - Date.now();
      if (left > 0) return this.armClear(left);
      const episode = { durationMs: Date.now() - this.since!, shed: this.shedInEpisode };
      this.since = undefined;
      this.shedInEpisode = 0;
      this.onChange(episode);
    }, ms);
    this.timer.unref();
  }
}
