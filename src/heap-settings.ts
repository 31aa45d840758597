import { setFlagsFromString } from 'node:v8';

/** V8 heap settings the gateway applies at start-up (flags NODE_OPTIONS refuses, so they are settings). */
export interface HeapSettings {
  /** HEAP_GROWTH_PERCENT; 0 leaves V8's own factor. */
  growthPercent: number;
  /** HEAP_PRETENURING; off unless asked for. */
  pretenuring: boolean;
}

/**
 * Applied before the gateway builds anything; V8 reads both flags at each collection, so they hold from
 * the first one after start-up.
 *
 * Growth: how far V8 lets the old generation grow past what the last full collection kept before it
 * collects again. V8 picks up to 4x on a machine with memory to spare: a gateway with ~75 MB live (the
 * bounded caches and the code) then holds ~300 MB of heap, most of it garbage, and those pages stay
 * resident. A smaller factor trades CPU for memory (README, Benchmark).
 *
 * Pretenuring: once most of the sampled objects of an allocation site have survived a young collection,
 * V8 allocates that site's objects straight into the old generation. Under load the sites it picks here
 * make objects that die soon after their request (survival is high only because 32 requests are in
 * flight across each young collection), so they fill the old generation with garbage: under an uncached
 * load (`--trace-gc`, the gateway on one core) a full collection came every 11 s at 1,000 lookups/s with
 * it and every 33 s without, and every one of them put ~50 ms into the tail of the requests it overlapped.
 */
export function applyHeapSettings(settings: HeapSettings): void {
  if (settings.growthPercent > 0) setFlagsFromString(`--heap-growing-percent=${settings.growthPercent}`);
  if (!settings.pretenuring) setFlagsFromString('--no-allocation-site-pretenuring');
}
