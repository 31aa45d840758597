import type { Plugin } from 'graphql-yoga';
import { rejection } from './errors.js';

/**
 * MAX_INPUT_DEPTH_EXCEEDED (400) for a request whose variables or extensions nest arrays and objects
 * deeper than `limit` (a variable's value counts from its own value: `["a"]` is 1 deep), checked when
 * the request's parameters are read, before anything walks them: coercion, cache keys, logs and spans
 * (JSON.stringify and graphql-js recurse). The walk is a loop and stops at the first value too deep.
 * The same limit bounds literals in the document (./limits/nesting.ts).
 */
export function useInputDepth(limit: number): Plugin {
  return {
    onParams({ params }) {
      check(params.variables, 'variable', '$', limit);
      check(params.extensions, 'extension', '', limit);
    },
  };
}

function check(container: unknown, noun: string, sigil: string, limit: number): void {
  if (container === null || typeof container !== 'object') return;
  for (const [name, value] of Object.entries(container)) {
    if (nestsDeeperThan(value, limit)) {
      throw rejection(
        'MAX_INPUT_DEPTH_EXCEEDED',
        `The ${noun} "${sigil}${name}" nests lists or objects more than ${limit} deep.`,
        400,
        {
          extensions: { limit },
        },
      );
    }
  }
}

/** Whether arrays and objects nest in `value` deeper than `limit` (a scalar is 0 deep, `[]` and `{}` 1). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<{ value: object; depth: number }> = [];
  if (value !== null && typeof value === 'object') pending.push({ value, depth: 1 });
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.depth > limit) return true;
    for (const child of Array.isArray(next.value) ? next.value : Object.values(next.value)) {
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth: next.depth + 1 });
    }
  }
  return false;
}
