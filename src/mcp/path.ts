/** Where the MCP endpoint answers: src/mcp/plugin.ts serves it, src/mcp/lazy.ts loads the server on its first request. */
export const MCP_PATH = '/mcp';
