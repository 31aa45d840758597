import { type JSONRPCMessage, specTypeSchemas } from '@modelcontextprotocol/server';
import { nestsDeeperThan } from '../security/input-depth.js';

/** The requests this server handles, by method, with the SDK's own schema of each. */
const SCHEMAS = {
  initialize: specTypeSchemas.InitializeRequest,
  ping: specTypeSchemas.PingRequest,
  'tools/list': specTypeSchemas.ListToolsRequest,
  'tools/call': specTypeSchemas.CallToolRequest,
  'resources/list': specTypeSchemas.ListResourcesRequest,
  'resources/templates/list': specTypeSchemas.ListResourceTemplatesRequest,
  'resources/read': specTypeSchemas.ReadResourceRequest,
  'prompts/list': specTypeSchemas.ListPromptsRequest,
  'prompts/get': specTypeSchemas.GetPromptRequest,
  'completion/complete': specTypeSchemas.CompleteRequest,
  'logging/setLevel': specTypeSchemas.SetLevelRequest,
} as const;

/**
 * The JSON-RPC invalid-params error (-32602) for a request whose params its method's schema refuses
 * (tool arguments as a list, a cursor that is not a string), or null. Checked before the SDK's server
 * sees it: the server reports some schema failures of its own as an internal error (-32603).
 */
export function invalidParams(message: JSONRPCMessage): JSONRPCMessage | null {
  if (!('method' in message) || !('id' in message)) return null;
  const schema = SCHEMAS[message.method as keyof typeof SCHEMAS];
  if (!schema) return null;
  const checked = schema['~standard'].validate(message);
  if (checked instanceof Promise || !checked.issues) return null;
  const problems = checked.issues.map(
    (issue) =>
      `${(issue.path ?? []).map((key) => (typeof key === 'object' ? String(key.key) : String(key))).join('.') || 'the request'}: ${issue.message}`,
  );
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: -32602, message: `Invalid params for ${message.method}: ${problems.join('; ')}` },
  };
}

/**
 * What in a JSON-RPC message (not yet checked against any schema) nests arrays and objects deeper
 * than `limit`, named as `/graphql` names a variable (a tool argument counts from its own value, as a
 * variable does; so does each other member of the message and of its params), or null. A loop over
 * each value that stops at the first too deep: linear in the body, never recursive.
 */
export function tooDeep(message: unknown, limit: number): string | null {
  if (!isObject(message)) return nestsDeeperThan(message, limit) ? 'The JSON-RPC message' : null;
  for (const [key, value] of Object.entries(message)) {
    if (key !== 'params' || !isObject(value)) {
      if (nestsDeeperThan(value, limit)) return `The member "${key}"`;
      continue;
    }
    for (const [param, inner] of Object.entries(value)) {
      if (param !== 'arguments' || !isObject(inner)) {
        if (nestsDeeperThan(inner, limit)) return `The parameter "${param}"`;
        continue;
      }
      for (const [argument, given] of Object.entries(inner))
        if (nestsDeeperThan(given, limit)) return `The argument "${argument}"`;
    }
  }
  return null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
