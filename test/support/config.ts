import { ConfigError, loadConfig } from '../../src/config.js';

/** The problems loadConfig reports for `env` (empty when it is valid). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
