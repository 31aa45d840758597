import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { heapFlags } from '../src/heap-settings.js';

const flagsFor = (env: Record<string, string>) => heapFlags(loadConfig(env).ops.heap);

describe('V8 heap flags set at start-up', () => {
  it("by default only pretenuring goes: V8's own growth factor and concurrent marking stay", () => {
    expect(flagsFor({})).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('as the settings ask', () => {
    expect(flagsFor({ HEAP_PRETENURING: 'true' })).toEqual([]);
    expect(flagsFor({ HEAP_CONCURRENT_MARKING: 'false' })).toEqual(['--no-allocation-site-pretenuring', '--no-concurrent-marking']);
    expect(flagsFor({ HEAP_GROWTH_PERCENT: '50', HEAP_PRETENURING: 'true' })).toEqual(['--heap-growing-percent=50']);
  });
});
