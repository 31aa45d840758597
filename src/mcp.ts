import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import pino from 'pino';
import { loadConfigOrExit } from './config.js';
import { createGateway } from './gateway.js';
import { createLogger, describeError } from './kernel/logger.js';
import { LineLimit, MAX_STDIO_MESSAGE_BYTES } from './mcp/line-limit.js';

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
  if (!config.mcp.apiKey && config.security.auth.mode === 'api-key')
    logger.warn(
      'MCP over stdio without MCP_API_KEY, and this gateway requires an API key: every call will be refused until MCP_API_KEY is set',
    );
  // A message over the limit is refused on its own (its id is unknown: null) and logged; the server goes on.
  const lines = new LineLimit(MAX_STDIO_MESSAGE_BYTES, (bytes) => {
    logger.warn(
      { bytes, limit: MAX_STDIO_MESSAGE_BYTES },
      'MCP over stdio: a message larger than the limit was refused',
    );
    process.stdout.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: `Invalid Request: the message is ${bytes} bytes, more than the ${MAX_STDIO_MESSAGE_BYTES} a message may hold.`,
        },
      })}\n`,
    );
  });
  // Whole lines reach the transport: its own buffer never holds more than one (and the newline).
  const transport = new StdioServerTransport(process.stdin.pipe(lines), process.stdout, {
    maxBufferSize: MAX_STDIO_MESSAGE_BYTES + 1,
  });
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void handle.close().finally(() => gateway.close().finally(() => process.exit(0)));
  };
  // One server for the connection, of the era its first message chose (2026-07-28, or the 2025 handshake).
  const stdio = { run, client: 'stdio' };
  const handle = serveStdio(() => mcp.tools.server(() => stdio), {
    transport,
    // A line the SDK cannot read (not JSON, not JSON-RPC) is said in the log, not dropped in silence.
    onerror: (error) => logger.warn({ err: error }, 'MCP over stdio: a message could not be read'),
  });
  process.stdin.on('end', close);
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
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
