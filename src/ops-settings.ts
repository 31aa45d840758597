/**
 * Where operators read the gateway: METRICS_PORT opens a second listener for /metrics and the detailed
 * /healthz and /readyz bodies. In production the public port answers only /graphql, /healthz and
 * /readyz (short bodies); without METRICS_PORT production has no /metrics at all.
 */
export interface OpsSettings {
  /** null: no separate listener. */
  metricsPort: number | null;
  metricsHost: string;
  /** After SIGTERM, how long /readyz answers 503 while the gateway still serves, so load balancers stop sending first. */
  drainDelayMs: number;
  /** HEAP_GROWTH_PERCENT: V8's old generation grows this far past its live size between full collections; 0: V8's own (src/heap-growth.ts). */
  heapGrowthPercent: number;
}

type Env = Record<string, string | undefined>;

export function readOpsSettings(
  env: Env,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
  host: string,
): OpsSettings {
  const rawPort = env.METRICS_PORT?.trim();
  const metricsPort = rawPort ? int('METRICS_PORT', 0, 0, 65535) : null;
  const port = env.PORT?.trim();
  if (metricsPort !== null && metricsPort !== 0 && port && Number(port) === metricsPort) problems.push('METRICS_PORT must differ from PORT');
  return {
    metricsPort,
    metricsHost: env.METRICS_HOST?.trim() || host,
    drainDelayMs: int('SHUTDOWN_DRAIN_DELAY_MS', 0, 0, 300_000),
    heapGrowthPercent: int('HEAP_GROWTH_PERCENT', 0, 0, 300),
  };
}
