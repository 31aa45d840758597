import { nestsDeeperThan } from '../security/input-depth.js';

/**
 * What in a JSON-RPC message (not yet checked against any schema) nests arrays and objects deeper
 * than `limit`, named as `/graphql` names a variable (a tool argument counts from its own value, as a
 * variable does; so does each other member of the message and of its params), or null. A loop over
 * each value that stops at the first too deep: linear in the body, never recursive.
 */
export function tooDeep(message: unknown, limit: number): string | null {
  if (!isObject(message)) return nestsDeeperThan(message, limit) ? 'The JSON-RPC message' : null;
  for (const [key, value] of Object.entries(message)) {
    if (key !== 'params' || !isObject(value)) {
      if (nestsDeeperThan(value, limit)) return `The member "${key}"`;
      continue;
    }
    for (const [param, inner] of Object.entries(value)) {
      if (param !== 'arguments' || !isObject(inner)) {
        if (nestsDeeperThan(inner, limit)) return `The parameter "${param}"`;
        continue;
      }
      for (const [argument, given] of Object.entries(inner))
        if (nestsDeeperThan(given, limit)) return `The argument "${argument}"`;
    }
  }
  return null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
