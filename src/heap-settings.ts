import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

/** V8 heap settings the gateway applies at start-up (flags NODE_OPTIONS refuses, so they are settings). */
export interface HeapSettings {
  /** HEAP_GROWTH_PERCENT; 0 leaves V8's own factor. */
  growthPercent: number;
  /** HEAP_PRETENURING; off unless asked for. */
  pretenuring: boolean;
  /** HEAP_CONCURRENT_MARKING; `auto`: off when the process has one CPU. */
  concurrentMarking: 'auto' | 'on' | 'off';
}

/**
 * The V8 flags for these settings on a process with `cpus` CPUs available. V8 reads each of them at every
 * collection, so set at start-up they hold from the first one.
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
 * Concurrent marking: V8 marks the old generation on four helper threads while JavaScript runs. With one
 * CPU they take turns with the requests, which then wait: each full collection put 50-90 ms into the
 * latency of the requests it overlapped (p99 over 10 ms in 9 of 20 five-second windows at a quarter of
 * saturation). Marked on the main thread in ~1 ms steps instead, p99 stayed under 13 ms in every window
 * (under 7 ms in 9 of 10) at the same CPU per request. With more CPUs the helpers run beside the requests.
 */
export function heapFlags(settings: HeapSettings, cpus: number): string[] {
  const flags: string[] = [];
  if (settings.growthPercent > 0) flags.push(`--heap-growing-percent=${settings.growthPercent}`);
  if (!settings.pretenuring) flags.push('--no-allocation-site-pretenuring');
  if (settings.concurrentMarking === 'off' || (settings.concurrentMarking === 'auto' && cpus <= 1)) flags.push('--no-concurrent-marking');
  return flags;
}

/** Sets the flags before the gateway builds anything; returns them, for the start-up log. */
export function applyHeapSettings(settings: HeapSettings, cpus = availableParallelism()): string[] {
  const flags = heapFlags(settings, cpus);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
