import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { CallAction } from '../context.js';
import { startSandbox, type Sandbox } from '../sandbox/server.js';
import { ActionClient } from './client.js';

export interface Upstream {
  /** The way to the upstream: every layer (resilience, then the HTTP client) composed. */
  callAction: CallAction;
  /** The built-in sandbox when no ACTION_BASE_URL is set outside production. */
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

/** Builds the path from the loaders to the upstream: the sandbox if needed, the client, its layers. */
export async function createUpstream(config: Config, logger: Logger): Promise<Upstream> {
  const sandbox = config.upstream.baseUrl ? null : await startSandbox({ latencyMs: config.sandboxLatencyMs });
  const client = new ActionClient({
    ...config.upstream,
    baseUrl: config.upstream.baseUrl ?? new URL(sandbox!.url),
    token: config.upstream.token ?? sandbox!.token,
    onCallDone: (call) => {
      if (call.outcome === 'OK') logger.debug({ upstreamCall: call }, 'upstream call');
      else logger.warn({ upstreamCall: call }, 'upstream call failed');
    },
  });
  const callAction: CallAction = (action, body, options) => client.call(action, body, options);
  return {
    callAction,
    sandbox,
    async close() {
      await client.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the upstream pool failed'));
      await sandbox?.close();
    },
  };
}
