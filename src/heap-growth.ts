import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept before it collects
 * again (HEAP_GROWTH_PERCENT; 0 leaves V8's own factor). V8 picks up to 4x on a machine with memory to
 * spare: a gateway with ~70 MB live (the bounded caches and the code) then holds ~300 MB of heap, most of
 * it garbage, and those pages stay resident. A smaller factor trades CPU for memory (README, Benchmark).
 * V8 reads the flag each time it sets the next limit, so it holds from the first collection after
 * start-up; NODE_OPTIONS refuses it, hence a setting.
 */
export function boundHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
