import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import pino from 'pino';
import { loadConfigOrExit } from './config.js';
import { createGateway } from './gateway.js';
import { createLogger, describeError } from './kernel/logger.js';

/**
 * The MCP server over stdio, for desktop and editor clients that start a process (`npm run mcp`,
 * `node dist/mcp.js`): the gateway built in this process from the same environment, its tools served
 * on stdin/stdout, every tool call a request through the gateway's one pipeline. Logs go to stderr:
 * stdout carries only MCP messages.
 */
async function main() {
  const config = loadConfigOrExit();
  if (!config.mcp.enabled) {
    console.error('MCP is turned off (MCP_ENABLED=false).');
    process.exit(78);
  }
  const logger = createLogger(
    config.logLevel,
    pino.destination(2),
    [config.upstream.token, config.mcp.apiKey],
    config.telemetry.logFormat,
  );
  const gateway = await createGateway(config, logger);
  gateway.readiness.serving();
  const mcp = await gateway.mcp!.load();
  // The key, when the gateway requires one, goes with every tool call like an HTTP client's.
  const run = mcp.runWith(config.mcp.apiKey ? { authorization: `Bearer ${config.mcp.apiKey}` } : {});
  const server = mcp.tools.server(() => run);
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void server.close().finally(() => gateway.close().finally(() => process.exit(0)));
  };
  server.onclose = close;
  process.stdin.on('end', close);
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
  await server.connect(new StdioServerTransport());
  logger.info(
    {
      upstream: gateway.sandbox ? 'sandbox' : config.upstream.baseUrl?.origin,
      tools: mcp.tools.listed.map((tool) => tool.name),
    },
    gateway.sandbox ? 'MCP over stdio, on the built-in SANDBOX upstream with sample data' : 'MCP over stdio',
  );
}

main().catch((error: unknown) => {
  console.error('Lookup Graph MCP failed to start:', describeError(error));
  process.exit(1);
});
