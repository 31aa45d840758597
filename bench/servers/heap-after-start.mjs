// Plain JavaScript: `node --expose-gc --import=<this file>` loads it into built servers, no tsx there; bench-only, never in src/.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/**
 * The start-up measurement of bench/startup.ts: BENCH_HEAP_AFTER_MS after the process started (4 s by
 * default), one full collection (global.gc, from --expose-gc), then the heap V8 counts as used is written to
 * BENCH_HEAP_FILE as JSON. Without BENCH_HEAP_FILE it does nothing; the timer holds no process open.
 */
const file = process.env.BENCH_HEAP_FILE;
if (file) {
  if (typeof globalThis.gc !== 'function') throw new Error('heap-after-start.mjs needs node --expose-gc');
  const afterMs = Number(process.env.BENCH_HEAP_AFTER_MS ?? 4000);
  setTimeout(
    () => {
      globalThis.gc();
      const heap = getHeapStatistics();
      writeFileSync(
        file,
        JSON.stringify({
          usedHeapBytes: heap.used_heap_size,
          totalHeapBytes: heap.total_heap_size,
          atMs: performance.now(),
        }),
      );
    },
    Math.max(0, afterMs - performance.now()),
  ).unref();
}
