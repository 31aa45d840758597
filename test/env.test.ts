import { describe, expect, it } from 'vitest';
import { EnvReader } from '../src/kernel/env.js';

describe('the settings reader', () => {
  it('reads switches as true/false or 1/0 in any case, and collects every bad value instead of stopping', () => {
    const read = new EnvReader({ A: ' TRUE ', B: '0', C: 'yes', D: '', E: '5', F: 'x' });
    expect([read.bool('A', false), read.bool('B', true), read.bool('C', true), read.bool('D', true)]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    expect(read.int('E', 1, 0, 4)).toBe(1);
    expect(read.int('F', 2, 0, 9)).toBe(2);
    expect(read.problems).toEqual([
      'C must be true or false, got "yes"',
      'E must be a whole number from 0 to 4, got "5"',
      'F must be a whole number from 0 to 9, got "x"',
    ]);
  });

  it('reads lists, durations in seconds, and one of a set of words', () => {
    const read = new EnvReader({ L: ' a, ,b ,', S: '90', W: 'Forward', X: 'other' });
    expect(read.list('L')).toEqual(['a', 'b']);
    expect(read.list('UNSET')).toEqual([]);
    expect(read.seconds('S', 60, 0, 3600)).toBe(90_000);
    expect(read.seconds('UNSET', 60, 0, 3600)).toBe(60_000);
    expect(read.oneOf('W', ['api-key', 'forward'] as const, 'api-key')).toBe('forward');
    expect(read.oneOf('X', ['api-key', 'forward'] as const, 'api-key')).toBe('api-key');
    expect(read.problems).toEqual(['X must be one of api-key, forward, got "other"']);
    expect(read.string('UNSET')).toBeUndefined();
  });
});
