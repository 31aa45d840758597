import { setFlagsFromString } from 'node:v8';

/** V8 heap settings the gateway applies at start-up (flags NODE_OPTIONS refuses, so they are settings). */
export interface HeapSettings {
  /** HEAP_GROWTH_PERCENT; 0 leaves V8's own factor. */
  growthPercent: number;
  /** HEAP_PRETENURING; off unless asked for. */
  pretenuring: boolean;
  /** HEAP_CONCURRENT_MARKING; on (V8's own) unless told off. */
  concurrentMarking: boolean;
}

/**
 * The V8 flags for these settings. V8 reads each of them at every collection, so set at start-up they hold
 * from the first one.
 *
 * Growth: how far V8 lets the old generation grow past what the last full collection kept before it
 * collects again. V8 picks up to 4x on a machine with memory to spare: a gateway with ~75 MB live (the
 * bounded caches and the code) then holds ~300 MB of heap, most of it garbage, and those pages stay
 * resident. A smaller factor trades CPU for memory (README, Benchmark).
 *
 * Pretenuring: once most of the sampled objects of an allocation site have survived a young collection,
 * V8 allocates that site's objects straight into the old generation. Under load the sites it picked here
 * made objects that die soon after their request (survival is high only because 32 requests are in
 * flight across each young collection), and they filled the old generation with garbage: under an
 * uncached load (`--trace-gc`) a full collection came every 11 s at 1,000 lookups/s with it, every 33 s
 * without.
 *
 * Concurrent marking: V8 marks the old generation on helper threads while JavaScript runs. On Node 20
 * (V8 11.3) with one CPU, its four helpers took turns with the requests and each full collection put
 * 50-90 ms into the latency of those it overlapped; marked on the main thread instead (off), p99 at a
 * quarter of saturation stayed lower at the same CPU. On Node 24 (V8 13.6), which the image runs, the same
 * setting made it far worse (p99 up to 137 ms, a third less throughput) while V8's own kept p99 under 5 ms,
 * so it stays on unless an operator on Node 20 with one CPU turns it off (README, Benchmark).
 */
export function heapFlags(settings: HeapSettings): string[] {
  const flags: string[] = [];
  if (settings.growthPercent > 0) flags.push(`--heap-growing-percent=${settings.growthPercent}`);
  if (!settings.pretenuring) flags.push('--no-allocation-site-pretenuring');
  if (!settings.concurrentMarking) flags.push('--no-concurrent-marking');
  return flags;
}

/** Sets the flags before the gateway builds anything; returns them, for the start-up log. */
export function applyHeapSettings(settings: HeapSettings): string[] {
  const flags = heapFlags(settings);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
