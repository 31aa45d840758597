import { VERSION } from '../version.js';
import { type Figures, type MetricsJson, quantileBetween, readFigures } from './figures.js';

/** How often the figures are read while someone watches the page. */
const SAMPLE_MS = 5_000;
/** How many readings are kept: ten minutes at one every five seconds. */
const KEPT = 121;
/** Nobody has asked for this long: the readings stop until the page is opened again. */
const IDLE_MS = 10 * 60_000;

/** Where the sources of a lookup's value are counted as saved calls: each answered one paid call fewer. */
const SAVED_SOURCES = ['cache', 'coalesced'] as const;

/** What /status.json answers: series over the kept readings (one point per interval) and the state now. */
export interface StatusReport {
  version: string;
  at: number;
  sampleSeconds: number;
  /** The end of each interval, in epoch seconds (uPlot's x values). */
  t: number[];
  requestsPerSecond: Array<number | null>;
  p50Ms: Array<number | null>;
  p99Ms: Array<number | null>;
  /** Errors per second, by code. */
  errorsPerSecond: Record<string, Array<number | null>>;
  /** Upstream calls per second, by action. */
  callsPerSecond: Record<string, Array<number | null>>;
  /** Upstream calls since start, by outcome (OK or the error code). */
  callOutcomes: Record<string, number>;
  /** Lookups per second by where their value came from, and remembered results replayed. */
  lookupsPerSecond: Record<string, Array<number | null>>;
  /** Since start: lookups by source, replays, and the calls saved (lookups answered without a call of their own). */
  answered: { lookups: Record<string, number>; replays: number; savedCalls: number; savedShare: number | null };
  eventLoopMaxMs: Array<number | null>;
  /** Seconds of GC pauses per second of time. */
  gcPauseShare: Array<number | null>;
  residentMb: Array<number | null>;
  heapUsedMb: Array<number | null>;
  quotas: Figures['quotas'];
  state: Pick<
    Figures,
    'ready' | 'holding' | 'overloaded' | 'eventLoopShedding' | 'breakersOpen' | 'redis' | 'inFlight' | 'queued'
  >;
}

const round = (value: number | null, digits = 3): number | null =>
  value === null || !Number.isFinite(value) ? null : Number(value.toFixed(digits));

/** The q-quantile of each interval's request durations, in milliseconds (null for an interval without requests). */
function quantileMs(pairs: Array<{ before: Figures; after: Figures }>, q: number): Array<number | null> {
  return pairs.map(({ before, after }) => {
    const seconds = quantileBetween(before.durationBuckets, after.durationBuckets, q);
    return seconds === null ? null : round(seconds * 1000, 1);
  });
}

/**
 * The readings behind the status page, taken from the same registry /metrics serves (summed over the
 * workers of WORKERS by their primary). They start when the page is first asked for, every SAMPLE_MS,
 * and stop after IDLE_MS without a request: a gateway nobody watches reads nothing.
 */
export class StatusHistory {
  private readonly readings: Figures[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastAsked = 0;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly source: () => Promise<MetricsJson>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The report, with a fresh reading when the last is older than half an interval. */
  async report(): Promise<StatusReport> {
    this.lastAsked = this.now();
    if (!this.timer) {
      this.timer = setInterval(() => {
        if (this.now() - this.lastAsked > IDLE_MS) this.stop();
        else void this.read().catch(() => undefined);
      }, SAMPLE_MS).unref();
    }
    const last = this.readings.at(-1);
    if (!last || this.now() - last.at >= SAMPLE_MS / 2) await this.read();
    return this.build();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.readings.length = 0;
  }

  private read(): Promise<void> {
    // One reading at a time: a request arriving while the timer reads waits for that one.
    this.reading ??= this.source()
      .then((metrics) => {
        this.readings.push(readFigures(metrics, this.now()));
        if (this.readings.length > KEPT) this.readings.shift();
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }

  private build(): StatusReport {
    const readings = this.readings;
    const now = readings.at(-1)!;
    const pairs = readings.slice(1).map((after, i) => ({ before: readings[i]!, after }));
    const perSecond = (value: (figures: Figures) => number) =>
      pairs.map(({ before, after }) => {
        const seconds = (after.at - before.at) / 1000;
        return seconds > 0 ? round(Math.max(0, value(after) - value(before)) / seconds) : null;
      });
    const keyed = <K extends string>(keys: Set<K>, value: (figures: Figures, key: K) => number) =>
      Object.fromEntries([...keys].sort().map((key) => [key, perSecond((figures) => value(figures, key))]));
    const keysOf = (pick: (figures: Figures) => object) =>
      new Set(readings.flatMap((figures) => Object.keys(pick(figures))));

    const lookups = now.lookups;
    const saved = SAVED_SOURCES.reduce((total, source) => total + (lookups[source] ?? 0), 0);
    const answeredLookups = saved + (lookups.upstream ?? 0);
    const callOutcomes: Record<string, number> = {};
    for (const outcomes of Object.values(now.calls))
      for (const [outcome, count] of Object.entries(outcomes))
        callOutcomes[outcome] = (callOutcomes[outcome] ?? 0) + count;
    return {
      version: VERSION,
      at: now.at,
      sampleSeconds: SAMPLE_MS / 1000,
      t: pairs.map(({ after }) => Math.round(after.at / 1000)),
      requestsPerSecond: perSecond((figures) => figures.requests),
      p50Ms: quantileMs(pairs, 0.5),
      p99Ms: quantileMs(pairs, 0.99),
      errorsPerSecond: keyed(
        keysOf((figures) => figures.errors),
        (figures, code) => figures.errors[code] ?? 0,
      ),
      callsPerSecond: keyed(
        keysOf((figures) => figures.calls),
        (figures, action) => Object.values(figures.calls[action] ?? {}).reduce((total, count) => total + count, 0),
      ),
      callOutcomes,
      lookupsPerSecond: {
        ...keyed(
          keysOf((figures) => figures.lookups),
          (figures, source) => figures.lookups[source] ?? 0,
        ),
        replays: perSecond((figures) => figures.replays),
      },
      answered: {
        lookups,
        replays: now.replays,
        savedCalls: saved,
        savedShare: answeredLookups > 0 ? round(saved / answeredLookups) : null,
      },
      eventLoopMaxMs: readings.slice(1).map((figures) => round((figures.eventLoopMaxSeconds ?? Number.NaN) * 1000, 1)),
      gcPauseShare: perSecond((figures) => figures.gcSeconds),
      residentMb: readings.slice(1).map((figures) => round((figures.residentBytes ?? Number.NaN) / 2 ** 20, 1)),
      heapUsedMb: readings.slice(1).map((figures) => round((figures.heapUsedBytes ?? Number.NaN) / 2 ** 20, 1)),
      quotas: now.quotas,
      state: {
        ready: now.ready,
        holding: now.holding,
        overloaded: now.overloaded,
        eventLoopShedding: now.eventLoopShedding,
        breakersOpen: now.breakersOpen,
        redis: now.redis,
        inFlight: now.inFlight,
        queued: now.queued,
      },
    };
  }
}
