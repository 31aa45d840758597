import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { GraphQLSchema } from 'graphql';
import { sha256Hex } from '../security/trusted-documents.js';
import { errorResult, toolResult, type AgentError, type GraphQLBody } from './answer.js';
import { ANSWER_KEYS, type ToolOperation } from './operations.js';
import { searchSchema } from './schema-search.js';
import type { McpSettings } from './settings.js';

/**
 * Runs one GraphQL request through the gateway's own pipeline (Yoga, in process) with the caller's
 * credentials, and returns its body.
 */
export type ExecuteGraphQL = (body: Record<string, unknown>) => Promise<GraphQLBody>;

export interface McpToolsOptions {
  schema: GraphQLSchema;
  tools: ToolOperation[];
  settings: McpSettings;
  /** Trusted documents are on: tools are sent by their document id, and `execute` is never offered. */
  trustedDocuments: boolean;
  version: string;
}

const SEARCH_SCHEMA = 'search_schema';
const EXECUTE = 'execute';

/** The tools of the server, listed once; each call becomes one GraphQL request. */
export class McpTools {
  readonly listed: Tool[];
  private readonly byName: Map<string, ToolOperation>;
  private readonly maxBytes: number;
  private readonly execute: boolean;
  private readonly searchSchema: boolean;
  // One for every server: the SDK builds a new Ajv for each server otherwise (a server per HTTP request).
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(private readonly options: McpToolsOptions) {
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.maxBytes = options.settings.maxResultTokens * 4;
    this.execute = options.settings.execute && !options.trustedDocuments;
    this.searchSchema = options.settings.searchSchema;
    this.listed = [
      ...options.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as Tool['inputSchema'],
        outputSchema: tool.outputSchema as Tool['outputSchema'],
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      })),
      ...(this.searchSchema
        ? [
            {
              name: SEARCH_SCHEMA,
              description:
                'Finds the types and fields of the GraphQL schema whose name or description contains any of the words, as short SDL with descriptions: use it to write a query for the execute tool.',
              inputSchema: {
                type: 'object' as const,
                properties: {
                  words: {
                    type: 'array',
                    items: { type: 'string' },
                    minItems: 1,
                    description: 'Words to look for, e.g. ["transcript", "video"].',
                  },
                },
                required: ['words'],
                additionalProperties: false,
              },
              annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
            },
          ]
        : []),
      ...(this.execute
        ? [
            {
              name: EXECUTE,
              description:
                'Runs one GraphQL query of your own against the lookup gateway, within its limits and cost budget: select exactly the fields you need (find them with search_schema). The answer is bounded like every tool answer.',
              inputSchema: {
                type: 'object' as const,
                properties: {
                  query: { type: 'string', description: 'One GraphQL query document.' },
                  variables: { type: 'object', description: "The query's variables, if it declares any." },
                },
                required: ['query'],
                additionalProperties: false,
              },
              outputSchema: { type: 'object' as const, properties: { ...ANSWER_KEYS } },
              annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
            },
          ]
        : []),
    ];
  }

  /**
   * An SDK server with these tools: one for every HTTP request (stateless), or one for stdio. `runFor`
   * gives the runner of the request being handled: its calls go through it, with its credentials.
   */
  server(runFor: (requestId: RequestId) => ExecuteGraphQL | undefined): Server {
    const server = new Server(
      { name: 'lookup-graph', version: this.options.version },
      {
        capabilities: { tools: { listChanged: false } },
        jsonSchemaValidator: this.validator,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listed }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const run = runFor(extra.requestId);
      if (!run) throw new McpError(ErrorCode.InternalError, 'The request this call came with has ended.');
      return this.call(request.params.name, request.params.arguments, run);
    });
    return server;
  }

  async call(name: string, args: Record<string, unknown> | undefined, run: ExecuteGraphQL): Promise<CallToolResult> {
    const given = args ?? {};
    if (name === SEARCH_SCHEMA && this.searchSchema) return this.search(given);
    if (name === EXECUTE && this.execute) return this.executeQuery(given, run);
    const tool = this.byName.get(name);
    // A name that tools/list never gave is the client's protocol fault, not something a model corrects.
    if (!tool)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}": tools/list gives the tools of this server.`);
    const problems = this.argumentProblems(tool, given);
    if (problems.length > 0) return errorResult(problems);
    const variables = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
    const request = this.options.trustedDocuments
      ? { documentId: `sha256:${sha256Hex(tool.document)}`, operationName: tool.operationName, variables }
      : { query: tool.document, operationName: tool.operationName, variables };
    const body = namedArguments(await run(request), tool);
    return toolResult(body, this.maxBytes, this.more(tool.more));
  }

  private more(hint: string | null): string {
    const fewer = this.execute
      ? 'ask for fewer fields with the execute tool'
      : 'ask for one item at a time with a narrower tool';
    return hint ? `To get the rest: ${hint}` : `To get the rest, ${fewer}.`;
  }

  /** Unknown and missing arguments; GraphQL itself checks each value against its type. */
  private argumentProblems(tool: ToolOperation, given: Record<string, unknown>): AgentError[] {
    const expected = () => [...tool.variables].map(([name, type]) => `${name}: ${type}`).join(', ') || 'no arguments';
    const problems: AgentError[] = [];
    for (const name of Object.keys(given)) {
      if (!tool.variables.has(name)) {
        problems.push({
          code: 'BAD_USER_INPUT',
          argument: name,
          message: `Unknown argument "${name}".`,
          whatToDo: `This tool takes ${expected()}.`,
        });
      }
    }
    for (const name of (tool.inputSchema.required as string[] | undefined) ?? []) {
      if (given[name] === undefined || given[name] === null) {
        problems.push({
          code: 'BAD_USER_INPUT',
          argument: name,
          message: `The argument "${name}" (${tool.variables.get(name)}) is required.`,
          whatToDo: `Call again with "${name}".`,
        });
      }
    }
    return problems;
  }

  private search(given: Record<string, unknown>): CallToolResult {
    const words = Array.isArray(given.words)
      ? given.words.filter((word): word is string => typeof word === 'string')
      : typeof given.words === 'string'
        ? given.words.split(/\s+/)
        : [];
    if (words.length === 0) {
      return errorResult([
        {
          code: 'BAD_USER_INPUT',
          argument: 'words',
          message: 'The argument "words" must be a non-empty list of strings.',
          whatToDo: 'Call again with words to look for.',
        },
      ]);
    }
    const sdl = searchSchema(this.options.schema, words);
    return toolResult(
      { data: { sdl: sdl || null } },
      this.maxBytes,
      'To get the rest, search with more specific words.',
    );
  }

  private async executeQuery(given: Record<string, unknown>, run: ExecuteGraphQL): Promise<CallToolResult> {
    if (typeof given.query !== 'string' || given.query.trim() === '') {
      return errorResult([
        {
          code: 'BAD_USER_INPUT',
          argument: 'query',
          message: 'The argument "query" must be a GraphQL query (a string).',
          whatToDo: 'Call again with a query.',
        },
      ]);
    }
    if (
      given.variables !== undefined &&
      (typeof given.variables !== 'object' || given.variables === null || Array.isArray(given.variables))
    ) {
      return errorResult([
        {
          code: 'BAD_USER_INPUT',
          argument: 'variables',
          message: 'The argument "variables" must be an object.',
          whatToDo: 'Pass the variables as a JSON object, or leave them out.',
        },
      ]);
    }
    const body = await run({ query: given.query, ...(given.variables ? { variables: given.variables } : {}) });
    return toolResult(
      body,
      this.maxBytes,
      'To get the rest, select fewer fields or pass a smaller "first" on the lists.',
    );
  }
}

const VARIABLE = /^Variable "\$(\w+)"/;

/** GraphQL's message on a variable of the wrong type, restated for the tool's argument of the same name. */
function namedArguments(body: GraphQLBody, tool: ToolOperation): GraphQLBody {
  if (!body.errors) return body;
  return {
    ...body,
    errors: body.errors.map((error) => {
      const name = VARIABLE.exec(error.message)?.[1];
      if (!name || !tool.variables.has(name)) return error;
      return {
        ...error,
        message: `The argument "${name}" must be ${tool.variables.get(name)}: ${error.message}`,
        extensions: { ...error.extensions, code: 'BAD_USER_INPUT', argument: name },
      };
    }),
  };
}
