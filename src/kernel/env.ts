/**
 * The one reader of settings from the environment, used by every settings module (src/config.ts,
 * src/cache/settings.ts, src/security/settings.ts). It never throws: each bad value is added to
 * `problems` and replaced by its default, so that loadConfig can name every bad setting in one message.
 */

/** The environment as the settings modules read it (process.env, or a test's object). */
export type Env = Record<string, string | undefined>;

export class EnvReader {
  /** Every problem found so far, one sentence each, naming its setting. */
  readonly problems: string[] = [];

  constructor(readonly env: Env) {}

  /** Records a problem that a settings module found itself (one that no reader below checks). */
  readonly problem = (message: string): void => {
    this.problems.push(message);
  };

  /** The value with surrounding white space removed; undefined when the setting is unset or blank. */
  readonly string = (name: string): string | undefined => {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  };

  /** A whole number from `min` to `max` (both included); `fallback` when unset. */
  readonly int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problem(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return Number(raw);
  };

  /** A duration given in whole seconds (a `*_SECONDS` setting), returned in milliseconds; bounds are in seconds. */
  readonly seconds = (name: string, fallbackSeconds: number, minSeconds: number, maxSeconds: number): number =>
    this.int(name, fallbackSeconds, minSeconds, maxSeconds) * 1000;

  /** `true`/`false` (or `1`/`0`), in any case; `fallback` when unset. */
  readonly bool = (name: string, fallback: boolean): boolean => {
    const raw = this.string(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problem(`${name} must be true or false, got "${this.env[name]}"`);
    return fallback;
  };

  /** One of `values` (compared in lower case); `fallback` when unset. */
  readonly oneOf = <T extends string>(name: string, values: readonly T[], fallback: T): T => {
    const raw = this.string(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if ((values as readonly string[]).includes(raw)) return raw as T;
    this.problem(`${name} must be one of ${values.join(', ')}, got "${this.env[name]}"`);
    return fallback;
  };

  /** A comma-separated list: each entry trimmed, empty entries dropped; empty when unset. */
  readonly list = (name: string): string[] =>
    (this.env[name] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
}
