// Own, not the SDK server's dispatch: a single 2025-era tools/call is the endpoint's hot path, and through the SDK's server (its message guards, the era classification, the request's schema three times and the result's once) a cached call cost about twice the GraphQL request it becomes. Every other message, and every 2026-07-28 one, goes to the SDK.
import {
  type CallToolRequestParams,
  type JSONRPCMessage,
  type JSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { toolResultJson } from './answer.js';
import { type Caller, type McpTools, PROTOCOL_VERSIONS } from './server.js';

/** The revisions before the stateless one: a message that claims no other is one of theirs (the handshake negotiates which). */
const LEGACY_VERSIONS = new Set(PROTOCOL_VERSIONS.filter((version) => version < '2026-07-28'));

/**
 * Whether a message is of the 2025 era for certain, as the SDK's own classification finds it: no
 * `_meta` envelope claim of a protocol version, and no 2026 revision in the MCP-Protocol-Version header.
 * Any other message is left to the SDK to classify (or refuse).
 */
export function surelyLegacy(request: Request, message: JSONRPCRequest): boolean {
  const header = request.headers.get('mcp-protocol-version');
  if (header !== null && !LEGACY_VERSIONS.has(header)) return false;
  const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
  return !(meta !== null && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta);
}

/**
 * A 2025-era tools/call (its params already checked against the SDK's schema) answered by the tools
 * themselves, as the SDK's server answers it: the tool result, or a JSON-RPC error with the thrown
 * protocol error's code (an unknown tool: -32602), as JSON text.
 */
export async function answerToolCall(tools: McpTools, message: JSONRPCRequest, caller: Caller): Promise<string> {
  const { name, arguments: args } = message.params as CallToolRequestParams;
  try {
    const result = await tools.call(name, args, caller);
    return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${toolResultJson(result)}}`;
  } catch (error) {
    const { message: text, data } = error as ProtocolError;
    const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
    const answer: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: message.id,
      error: { code, message: text, ...(data !== undefined ? { data } : {}) },
    };
    return JSON.stringify(answer);
  }
}
