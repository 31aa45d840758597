import {
  type CallToolResult,
  type LoggingLevel,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { GraphQLSchema } from 'graphql';
import { sha256Hex } from '../security/trusted-documents.js';
import { errorResult, toolResult, type AgentError, type GraphQLBody } from './answer.js';
import { ANSWER_KEYS, type ToolOperation } from './operations.js';
import { Catalog, RecentKeys } from './catalog.js';
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
  /** Served from the built-in sandbox: the instructions say so. */
  sandbox: boolean;
}

/** Who a server serves: how its calls run (with the caller's credentials) and who it is (completion, notices). */
export interface Caller {
  run: ExecuteGraphQL;
  /** The client's identity (a hash of its credentials, or its address): its own recent keys only. */
  client: string;
}

/**
 * The protocol versions served: 2026-07-28 statelessly (each request carries its `_meta` envelope), and
 * the 2025 revisions through the `initialize` handshake.
 */
export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

/** Where a call's notices go: the client's own log, at the level it set (logging/setLevel). */
export type Notices = (level: LoggingLevel, data: Record<string, unknown>) => void;

/** No one to tell: an answer sent as one JSON body has no room for notices before it. */
const UNHEARD: Notices = () => {};

const noticesOf =
  (ctx: ServerContext): Notices =>
  (level, data) =>
    void ctx.mcpReq.log(level, data, 'lookup-graph').catch(() => {});

/** "CompanyWithStock" → "Company with stock": a tool's title for people, from its operation's name. */
const titleOf = (operationName: string): string => {
  const words = operationName.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const SEARCH_SCHEMA = 'search_schema';
const EXECUTE = 'execute';

/** The tools of the server, listed once; each call becomes one GraphQL request. */
export class McpTools {
  readonly listed: Tool[];
  private readonly byName: Map<string, ToolOperation>;
  private readonly maxBytes: number;
  private readonly execute: boolean;
  private readonly searchSchema: boolean;
  private readonly recent = new RecentKeys();
  readonly catalog: Catalog;
  private readonly instructions: string;

  constructor(private readonly options: McpToolsOptions) {
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.maxBytes = options.settings.maxResultTokens * 4;
    this.execute = options.settings.execute && !options.trustedDocuments;
    this.searchSchema = options.settings.searchSchema;
    this.catalog = new Catalog(options.tools, this.recent);
    this.instructions = [
      options.sandbox
        ? 'This server answers from a built-in SANDBOX with sample data, not live data: say so when you use it.'
        : 'This server looks up live data from a paid service: each lookup not already cached may be paid, so call only what the task needs and reuse answers.',
      'Each tool is one lookup (company, stock profiles, domains, profiles, news, posts, videos); a repeat of the same lookup is answered from the cache at no cost.',
      `Answers are bounded to about ${options.settings.maxResultTokens} tokens; when one is trimmed, _trimmed says what was left out and how to narrow it. _errors lists the lookups that failed while others answered: where, the error code and what to do.`,
      ...(this.execute
        ? ['For fields the tools do not return, find them with search_schema and ask for exactly those with execute.']
        : []),
      'Resources: lookup://schema.graphql (the schema), lookup://errors.md (error codes), and templates such as lookup://company/{domain}. Prompts: company_brief, person_brief, topic_watch.',
    ].join('\n');
    this.listed = [
      ...options.tools.map((tool) => ({
        name: tool.name,
        title: titleOf(tool.operationName),
        description: tool.description,
        inputSchema: tool.inputSchema as Tool['inputSchema'],
        outputSchema: tool.outputSchema as Tool['outputSchema'],
        annotations: { readOnlyHint: true, openWorldHint: true },
      })),
      ...(this.searchSchema
        ? [
            {
              name: SEARCH_SCHEMA,
              title: 'Search the schema',
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
              annotations: { readOnlyHint: true, openWorldHint: false },
            },
          ]
        : []),
      ...(this.execute
        ? [
            {
              name: EXECUTE,
              title: 'Run a GraphQL query',
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
              annotations: { readOnlyHint: true, openWorldHint: true },
            },
          ]
        : []),
    ];
  }

  /**
   * An SDK server with these tools, resources and prompts: the long-lived one of the 2025 HTTP
   * exchange, one per 2026-07-28 HTTP request (as the SDK's handler builds them) or one per stdio
   * connection. Each message's calls go through the `run` of the caller it came from (the HTTP
   * request's credentials), named by `callerOf`.
   */
  server(callerOf: (ctx: ServerContext) => Caller): Server {
    const server = new Server(
      { name: 'lookup-graph', title: 'Lookup Graph', version: this.options.version },
      {
        capabilities: {
          tools: { listChanged: false },
          resources: { listChanged: false, subscribe: false },
          prompts: { listChanged: false },
          completions: {},
          logging: {},
        },
        instructions: this.instructions,
        supportedProtocolVersions: PROTOCOL_VERSIONS,
      },
    );
    server.setRequestHandler('tools/list', () => ({ tools: this.listed }));
    const callAs = (ctx: ServerContext, tool: string, args: Record<string, unknown> | undefined) =>
      this.call(tool, args, callerOf(ctx), noticesOf(ctx));
    server.setRequestHandler('tools/call', (request, ctx) =>
      callAs(ctx, request.params.name, request.params.arguments),
    );
    this.catalog.install(server, {
      read: (tool, args, ctx) => callAs(ctx, tool, args),
      clientOf: (ctx) => callerOf(ctx).client,
    });
    return server;
  }

  async call(
    name: string,
    args: Record<string, unknown> | undefined,
    caller: Caller,
    notices: Notices = UNHEARD,
  ): Promise<CallToolResult> {
    const given = args ?? {};
    if (name === SEARCH_SCHEMA && this.searchSchema) return this.search(given);
    if (name === EXECUTE && this.execute) return this.executeQuery(given, caller, notices);
    const tool = this.byName.get(name);
    // A name that tools/list never gave is the client's protocol fault, not something a model corrects.
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}": tools/list gives the tools of this server.`,
      );
    const problems = this.argumentProblems(tool, given);
    if (problems.length > 0) return errorResult(problems);
    const variables = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
    const request = this.options.trustedDocuments
      ? { documentId: `sha256:${sha256Hex(tool.document)}`, operationName: tool.operationName, variables }
      : { query: tool.document, operationName: tool.operationName, variables };
    const body = namedArguments(await caller.run(request), tool);
    this.recent.remember(caller.client, body);
    return this.answer(body, this.more(tool.more), notices, name);
  }

  /** The bounded tool result, with a notice to the client for each refused lookup and a trimmed answer. */
  private answer(body: GraphQLBody, more: string, notices: Notices, tool: string): CallToolResult {
    const result = toolResult(body, this.maxBytes, more);
    const lookups = (body.extensions?.gateway as { lookups?: Array<Record<string, unknown>> } | undefined)?.lookups;
    for (const lookup of lookups ?? []) if (lookup.source === 'refused') notices('warning', { tool, refused: lookup });
    const trimmed = (result.structuredContent as { _trimmed?: unknown } | undefined)?._trimmed;
    if (trimmed) notices('info', { tool, trimmed });
    return result;
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

  private async executeQuery(
    given: Record<string, unknown>,
    caller: Caller,
    notices: Notices,
  ): Promise<CallToolResult> {
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
    const body = await caller.run({ query: given.query, ...(given.variables ? { variables: given.variables } : {}) });
    this.recent.remember(caller.client, body);
    return this.answer(
      body,
      'To get the rest, select fewer fields or pass a smaller "first" on the lists.',
      notices,
      EXECUTE,
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
