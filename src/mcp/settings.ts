import type { EnvReader } from '../kernel/env.js';

/** MCP_*: the Model Context Protocol server at /mcp and over stdio (src/mcp/). */
export interface McpSettings {
  enabled: boolean;
  /**
   * Built at start rather than on the first /mcp request: MCP_ENABLED or MCP_OPERATIONS_DIR set (a bad tool
   * file then stops the start), or trusted documents on (the tools' operations are trusted from the start).
   */
  atStart: boolean;
  /** A folder of more tool operations (MCP_OPERATIONS_DIR): they add to the default ones, or replace those of the same name. */
  operationsDir: string | null;
  /** The most a tool's answer may hold, in tokens counted as bytes / 4. */
  maxResultTokens: number;
  /** The `execute` tool (one query of the agent's own). */
  execute: boolean;
  /** The `search_schema` tool. */
  searchSchema: boolean;
  /** The API key the stdio server sends with each tool call, when the gateway requires one. */
  apiKey: string | null;
}

/**
 * `execute` and `search_schema` are on with the built-in sandbox and off otherwise unless MCP_EXECUTE
 * turns them on; `execute` cannot be combined with trusted documents (only they run).
 */
export function readMcpSettings(read: EnvReader, sandbox: boolean, trustedDocuments: boolean): McpSettings {
  const asked = read.string('MCP_EXECUTE') !== undefined;
  const on = read.bool('MCP_EXECUTE', sandbox);
  if (asked && on && trustedDocuments) {
    read.problem(
      'MCP_EXECUTE=true cannot be combined with TRUSTED_DOCUMENTS_FILE: only the trusted documents (and the tools) run',
    );
  }
  const operationsDir = read.string('MCP_OPERATIONS_DIR') ?? null;
  return {
    enabled: read.bool('MCP_ENABLED', true),
    atStart: read.string('MCP_ENABLED') !== undefined || operationsDir !== null || trustedDocuments,
    operationsDir,
    maxResultTokens: read.int('MCP_MAX_RESULT_TOKENS', 20_000, 100, 1_000_000),
    execute: on && !trustedDocuments,
    searchSchema: on,
    apiKey: read.string('MCP_API_KEY') ?? null,
  };
}
