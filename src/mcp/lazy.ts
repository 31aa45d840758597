import type { Plugin } from 'graphql-yoga';
import type { Mcp, McpOptions } from './index.js';
import { MCP_PATH } from './path.js';

/** The MCP server as the gateway holds it: built at start when a setting asks for it, else on the first /mcp request. */
export interface LazyMcp {
  /** The /mcp endpoint: first in the plugin list. */
  endpoint: Plugin;
  /** Hands each tool call's GraphQL result to its tool: after every plugin that changes a result. */
  toolRequests: Plugin;
  /** The MCP server, built (its SDK, zod and ajv loaded) on the first call. */
  load(): Promise<Mcp>;
}

/**
 * The MCP server without its SDK until it is needed: only this file is imported at start, and
 * src/mcp/index.ts (the SDK, zod, ajv: about 250 modules and several MB of heap) on the first request to
 * /mcp, or at once with `atStart` (a setting asked for MCP: its tools are then validated at start). Both
 * plugins are installed from the start and hand each hook to the real ones once they are loaded; a
 * request to any other path never waits for them, and before the first /mcp request no tool request exists
 * for `toolRequests` to answer.
 */
export async function lazyMcp(options: McpOptions, atStart: boolean): Promise<LazyMcp> {
  let loaded: Mcp | null = null;
  let loading: Promise<Mcp> | null = null;
  const load = () => {
    loading ??= import('./index.js').then(({ createMcp }) => {
      loaded = createMcp(options);
      return loaded;
    });
    return loading;
  };
  if (atStart) await load();
  return {
    load,
    endpoint: {
      async onRequest(payload) {
        if (payload.url.pathname !== MCP_PATH) return;
        const mcp = loaded ?? (await load());
        return mcp.endpoint.onRequest?.(payload);
      },
    },
    toolRequests: {
      onResultProcess(payload) {
        return loaded?.toolRequests.onResultProcess?.(payload);
      },
      onResponse(payload) {
        return loaded?.toolRequests.onResponse?.(payload);
      },
    },
  };
}
