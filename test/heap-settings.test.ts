import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { heapFlags } from '../src/heap-settings.js';

const heapOf = (env: Record<string, string>) => loadConfig(env).ops.heap;

describe('V8 heap flags set at start-up', () => {
  it('by default: no pretenuring, and concurrent marking off only when the process has one CPU', () => {
    expect(heapFlags(heapOf({}), 1)).toEqual(['--no-allocation-site-pretenuring', '--no-concurrent-marking']);
    expect(heapFlags(heapOf({}), 2)).toEqual(['--no-allocation-site-pretenuring']);
    expect(heapFlags(heapOf({}), 16)).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('as the settings ask, whatever the CPUs', () => {
    expect(heapFlags(heapOf({ HEAP_CONCURRENT_MARKING: 'on', HEAP_PRETENURING: 'true' }), 1)).toEqual([]);
    expect(heapFlags(heapOf({ HEAP_CONCURRENT_MARKING: 'off' }), 8)).toEqual(['--no-allocation-site-pretenuring', '--no-concurrent-marking']);
    expect(heapFlags(heapOf({ HEAP_GROWTH_PERCENT: '50', HEAP_PRETENURING: 'true' }), 4)).toEqual(['--heap-growing-percent=50']);
  });
});
