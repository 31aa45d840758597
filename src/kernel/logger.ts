import { createRequire } from 'node:module';
import pino, { type DestinationStream, type LevelWithSilent, type Logger } from 'pino';
import { ActionError } from './errors.js';

/**
 * Structured logs. Anything that could carry a credential is redacted by path, and errors are
 * logged as code and message only, never with a stack.
 */
export function createLogger(
  level: LevelWithSilent,
  destination?: DestinationStream,
  secrets: Array<string | null> = [],
  format: 'json' | 'pretty' = 'json',
): Logger {
  const known = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 8);
  return pino(
    {
      level,
      // Redaction by field name cannot see a secret inside a message; the known ones are replaced in every line.
      hooks: known.length
        ? { streamWrite: (line: string) => known.reduce((text, secret) => text.split(secret).join('[redacted]'), line) }
        : {},
      base: { service: 'lookup-graph' },
      redact: {
        paths: [
          'authorization',
          'token',
          'headers.authorization',
          '*.authorization',
          '*.token',
          '*.headers.authorization',
          // Client credentials of the gateway itself (src/security/auth.ts) and a forwarded upstream token.
          '["x-api-key"]',
          'headers["x-api-key"]',
          '*["x-api-key"]',
          '*.headers["x-api-key"]',
          'apiKey',
          '*.apiKey',
          'upstreamToken',
          '*.upstreamToken',
          'cookie',
          'headers.cookie',
          '*.headers.cookie',
        ],
        censor: '[redacted]',
      },
      serializers: { err: (error: unknown) => describeError(error) },
    },
    format === 'pretty' ? prettyStream(destination) : destination,
  );
}

/**
 * LOG_FORMAT=pretty: pino-pretty's coloured one-line-per-event output for development, in this
 * thread (no transport worker). Loaded only when asked for.
 */
function prettyStream(destination?: DestinationStream): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (
    options: Record<string, unknown>,
  ) => DestinationStream;
  return pretty({
    colorize: !destination && process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    singleLine: true,
    sync: true,
    ...(destination ? { destination } : {}),
  });
}

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name, message: error.message, ...(code !== undefined ? { code } : {}) };
  }
  return { message: String(error) };
}

/** Lines of unexpected errors written per window; the rest are counted and reported with the next line. */
const ERROR_LINES_PER_WINDOW = 10;
const ERROR_WINDOW_MS = 1_000;

/**
 * Adapts pino to Yoga's logger interface, keeping stacks and error objects out of the lines. Yoga
 * logs every error it masks, one line each: coded lookup failures are expected outcomes that the
 * request's own line counts by code (src/telemetry/request-log.ts), so they get no line of their own;
 * unexpected errors are written at most ERROR_LINES_PER_WINDOW a second, the others counted, so no
 * request (a list of 5,000 failing items) can flood the log.
 */
export function yogaLogger(logger: Logger) {
  let windowStart = 0;
  let written = 0;
  let suppressed = 0;
  const admit = (): number | null => {
    const now = Date.now();
    if (now - windowStart >= ERROR_WINDOW_MS) {
      windowStart = now;
      written = 0;
    }
    if (written >= ERROR_LINES_PER_WINDOW) {
      suppressed += 1;
      return null;
    }
    written += 1;
    const before = suppressed;
    suppressed = 0;
    return before;
  };
  const log =
    (wanted: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      const errors = args.filter((arg): arg is Error => arg instanceof Error);
      if (errors.length > 0 && errors.every((error) => codedFailure(error) !== null)) return;
      const skipped = wanted === 'error' || wanted === 'warn' ? admit() : 0;
      if (skipped === null) return;
      const message = typeof first === 'string' ? first : (errors[0]?.message ?? 'yoga');
      logger[wanted](
        {
          source: 'yoga',
          ...(errors.length ? { err: errors[0] } : {}),
          ...(rest.length && !errors.length ? { detail: rest.map(String).join(' ') } : {}),
          ...(skipped > 0 ? { linesSuppressed: skipped } : {}),
        },
        message,
      );
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

function codedFailure(error: Error): ActionError | null {
  const original = (error as { originalError?: unknown }).originalError ?? error;
  return original instanceof ActionError ? original : null;
}
