import { cpusAvailable } from './cores.js';
import type { EnvReader } from '../kernel/env.js';

/**
 * Where operators read the gateway: METRICS_PORT opens a second listener for /metrics and the detailed
 * /healthz and /readyz bodies. In production the public port answers only /graphql, /healthz and
 * /readyz (short bodies); without METRICS_PORT production has no /metrics at all.
 */
export interface OpsSettings {
  /** null: no separate listener. */
  metricsPort: number | null;
  /** The address of the metrics listener: HOST's. */
  metricsHost: string;
  /** After SIGTERM, how long /readyz answers 503 while the gateway still serves, so load balancers stop sending first. */
  drainDelayMs: number;
  /** Gateway processes sharing the port (WORKERS): 1 runs in this process; more fork a primary and its workers. */
  workers: number;
  /** New operations are refused (OVERLOADED) while the event loop's delay exceeds this; 0: never. */
  eventLoopDelayLimitMs: number;
}

export function readOpsSettings(read: EnvReader, host: string, production: boolean): OpsSettings {
  const { int } = read;
  const metricsPort = read.string('METRICS_PORT') ? int('METRICS_PORT', 0, 0, 65535) : null;
  const port = read.string('PORT');
  if (metricsPort !== null && metricsPort !== 0 && port && Number(port) === metricsPort)
    read.problem('METRICS_PORT must differ from PORT');
  return {
    metricsPort,
    metricsHost: host,
    drainDelayMs: int('SHUTDOWN_DRAIN_DELAY_MS', 0, 0, 300_000),
    workers: read.string('WORKERS')?.toLowerCase() === 'auto' ? cpusAvailable() : int('WORKERS', 1, 1, 64),
    // On in production; off in development, where a debugger or a loaded laptop stalls the loop on purpose.
    eventLoopDelayLimitMs: int('SHED_EVENT_LOOP_DELAY_MS', production ? 1000 : 0, 0, 60_000),
  };
}
