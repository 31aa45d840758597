import { readFileSync } from 'node:fs';
import {
  type CallToolResult,
  type GetPromptResult,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
  UriTemplate,
} from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import { GET_COMPANY_OBJECT } from '../actions/company-object/load.js';
import { DOMAIN_INFO } from '../actions/domain-info/load.js';
import { COMPANY_FINANCIAL_PROFILE } from '../actions/financial-profile/load.js';
import { GET_PHOTOSOCIAL_PROFILE } from '../actions/photosocial-profile/load.js';
import { GET_PROFESSIONALNET_PROFILE } from '../actions/professionalnet-profile/load.js';
import type { GraphQLBody } from './answer.js';
import { snakeCase, type ToolOperation } from './operations.js';

const SCHEMA_FILE = new URL('../../schema/schema.graphql', import.meta.url);
const ERRORS_FILE = new URL('../../docs/errors.md', import.meta.url);

/** A lookup an agent attaches as context: a tool call by another name (same pipeline, quota, cost, log). */
interface Template {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  tool: string;
  argument: string;
  /** The argument is a list, written comma-separated in the URI. */
  list: boolean;
  /** The action whose canonical keys completion suggests. */
  action: string;
}

const TEMPLATES: Template[] = [
  {
    uriTemplate: 'lookup://company/{domain}',
    name: 'company',
    title: 'Company',
    description: 'A company by its web domain (e.g. hubspot.com): what it does, its size, ticker and accounts.',
    tool: snakeCase('Company'),
    argument: 'domain',
    list: false,
    action: GET_COMPANY_OBJECT,
  },
  {
    // The explode form: a list variable, so `AAPL,NKE` matches (RFC 6570; `{symbols}` refuses the comma).
    uriTemplate: 'lookup://financial-profiles/{symbols*}',
    name: 'financial-profiles',
    title: 'Stock profiles',
    description: 'Stock profiles by ticker symbols, comma-separated (e.g. AAPL,NKE): price, market cap, exchange.',
    tool: snakeCase('FinancialProfiles'),
    argument: 'symbols',
    list: true,
    action: COMPANY_FINANCIAL_PROFILE,
  },
  {
    uriTemplate: 'lookup://domain-info/{domain}',
    name: 'domain-info',
    title: 'Domain registration',
    description: 'The registration record of a domain: registrar, dates, name servers.',
    tool: snakeCase('DomainInfo'),
    argument: 'domain',
    list: false,
    action: DOMAIN_INFO,
  },
  {
    uriTemplate: 'lookup://professionalnet-profile/{handle}',
    name: 'professionalnet-profile',
    title: 'Professional profile',
    description: 'A person’s professional network profile by handle or profile URL, with the company it links to.',
    tool: snakeCase('ProfessionalnetProfile'),
    argument: 'handle',
    list: false,
    action: GET_PROFESSIONALNET_PROFILE,
  },
  {
    uriTemplate: 'lookup://photosocial-profile/{username}',
    name: 'photosocial-profile',
    title: 'Photo-social profile',
    description: 'A photo-sharing social profile by username: bio, followers, recent posts.',
    tool: snakeCase('PhotosocialProfile'),
    argument: 'username',
    list: false,
    action: GET_PHOTOSOCIAL_PROFILE,
  },
];

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface Prompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  text(args: Record<string, string>): string;
}

/** Prompts chain lookups the way analysts use them: messages that name the tools, never pre-fetched data. */
const PROMPTS: Prompt[] = [
  {
    name: 'company_brief',
    title: 'Company brief',
    description: 'A brief on a company: its record, its stock profile and its recent news.',
    arguments: [{ name: 'domain', description: 'The company’s web domain, e.g. hubspot.com.', required: true }],
    text: ({ domain }) =>
      `Write a brief on the company at ${domain}.\n` +
      `1. Call the tool company_with_stock with {"domain": ${JSON.stringify(domain)}} for its record and, when it is listed, its stock profile.\n` +
      '2. Call the tool news with the company’s name as "query" and "dateRange": "PAST_WEEK" for its recent news.\n' +
      'Then summarise what it does, its size, its stock (price, market cap) and the news that matters, citing each fact’s source tool. Say plainly what a tool could not find.',
  },
  {
    name: 'person_brief',
    title: 'Person brief',
    description: 'A brief on a person: their professional profile and the company it links to.',
    arguments: [
      {
        name: 'handle',
        description: 'Their professional network handle or profile URL.',
        required: true,
      },
    ],
    text: ({ handle }) =>
      `Write a brief on the person with the professional profile ${handle}.\n` +
      `1. Call the tool professionalnet_profile with {"handle": ${JSON.stringify(handle)}}.\n` +
      '2. If the profile names a current employer with a web domain, call the tool company with that domain.\n' +
      'Then summarise their role, experience and the company they work for. Do not guess what a tool did not return.',
  },
  {
    name: 'topic_watch',
    title: 'Topic watch',
    description: 'What is being said about a subject: news articles and microblog posts.',
    arguments: [
      { name: 'topic', description: 'The subject to watch, e.g. "electric trucks".', required: true },
      {
        name: 'dateRange',
        description: 'How far back the news goes: PAST_DAY (the default), PAST_WEEK or PAST_MONTH.',
        required: false,
      },
    ],
    text: ({ topic, dateRange }) =>
      `Watch the topic ${JSON.stringify(topic)}.\n` +
      `1. Call the tool news with {"query": ${JSON.stringify(topic)}, "dateRange": ${JSON.stringify(dateRange ?? 'PAST_DAY')}}.\n` +
      `2. Call the tool microblog_posts with {"query": ${JSON.stringify(topic)}, "first": 20}.\n` +
      'Then report the main threads, who is driving them and how news and posts differ. Link each item you cite.',
  },
];

/** The most keys remembered for one client and one action, and clients remembered at once. */
const KEYS_PER_ACTION = 20;
const CLIENTS = 1000;

/**
 * The canonical keys each client's own calls looked up recently, newest first: what completion
 * suggests to that client, never to another.
 */
export class RecentKeys {
  private readonly byClient = new LRUCache<string, Map<string, string[]>>({ max: CLIENTS });

  remember(client: string, body: GraphQLBody): void {
    const lookups = (body.extensions?.gateway as { lookups?: Array<{ action?: unknown; key?: unknown }> } | undefined)
      ?.lookups;
    if (!lookups?.length) return;
    let actions = this.byClient.get(client);
    if (!actions) {
      actions = new Map();
      this.byClient.set(client, actions);
    }
    for (const { action, key } of lookups) {
      if (typeof action !== 'string' || typeof key !== 'string') continue;
      const keys = (actions.get(action) ?? []).filter((known) => known !== key);
      keys.unshift(key);
      actions.set(action, keys.slice(0, KEYS_PER_ACTION));
    }
  }

  of(client: string, action: string): string[] {
    return this.byClient.get(client)?.get(action) ?? [];
  }
}

export interface CatalogCaller {
  /** A template read: the template's tool called with its argument. */
  read(tool: string, args: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult>;
  /** Who is asking: completion suggests this client's own keys only. */
  clientOf(ctx: ServerContext): string;
}

/** The resources, resource templates, prompts and completions of the server. */
export class Catalog {
  private readonly schemaSdl = readFileSync(SCHEMA_FILE, 'utf8');
  private readonly errorsDoc = readFileSync(ERRORS_FILE, 'utf8');
  private readonly templates: Array<Template & { matcher: UriTemplate }>;
  private readonly resources: Array<{
    uri: string;
    name: string;
    title: string;
    description: string;
    mimeType: string;
    text: string;
  }>;

  constructor(
    tools: ToolOperation[],
    private readonly recent: RecentKeys,
  ) {
    const names = new Set(tools.map((tool) => tool.name));
    this.templates = TEMPLATES.filter((template) => names.has(template.tool)).map((template) => ({
      ...template,
      matcher: new UriTemplate(template.uriTemplate),
    }));
    this.resources = [
      {
        uri: 'lookup://schema.graphql',
        name: 'schema',
        title: 'GraphQL schema',
        description: 'The whole GraphQL schema as SDL, with every type’s and field’s documentation.',
        mimeType: 'application/graphql',
        text: this.schemaSdl,
      },
      {
        uri: 'lookup://errors.md',
        name: 'errors',
        title: 'Error codes',
        description: 'Every error code the gateway answers with, what it means and what to do about it.',
        mimeType: 'text/markdown',
        text: this.errorsDoc,
      },
      ...tools.map((tool) => ({
        uri: `lookup://operations/${tool.name}.graphql`,
        name: `operation-${tool.name}`,
        title: `Operation of ${tool.name}`,
        description: `The GraphQL query the tool ${tool.name} runs: copy it to select other fields with execute.`,
        mimeType: 'application/graphql',
        text: tool.document,
      })),
    ];
  }

  /** Sizes in bytes of the static resources, by URI (for the docs and the closing note). */
  get sizes(): Record<string, number> {
    return Object.fromEntries(this.resources.map(({ uri, text }) => [uri, Buffer.byteLength(text)]));
  }

  install(server: Server, caller: CatalogCaller): void {
    server.setRequestHandler('resources/list', () => ({
      resources: this.resources.map(({ text, ...resource }) => ({ ...resource, size: Buffer.byteLength(text) })),
    }));
    server.setRequestHandler('resources/templates/list', () => ({
      resourceTemplates: this.templates.map(({ uriTemplate, name, title, description }) => ({
        uriTemplate,
        name,
        title,
        description,
        mimeType: 'application/json',
      })),
    }));
    server.setRequestHandler('resources/read', (request, ctx) => this.read(request.params.uri, caller, ctx));
    server.setRequestHandler('prompts/list', () => ({
      prompts: PROMPTS.map(({ text: _text, ...prompt }) => prompt),
    }));
    server.setRequestHandler('prompts/get', (request) => this.prompt(request.params.name, request.params.arguments));
    server.setRequestHandler('completion/complete', (request, ctx) => {
      const { ref, argument } = request.params;
      const values =
        ref.type === 'ref/resource'
          ? this.complete(ref.uri, argument.name, argument.value, caller.clientOf(ctx))
          : this.completePrompt(ref.name, argument.name, argument.value);
      return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
    });
  }

  private async read(uri: string, caller: CatalogCaller, ctx: ServerContext): Promise<ReadResourceResult> {
    const fixed = this.resources.find((resource) => resource.uri === uri);
    if (fixed) return { contents: [{ uri, mimeType: fixed.mimeType, text: fixed.text }] };
    for (const template of this.templates) {
      const matched = template.matcher.match(uri);
      const raw = matched?.[template.argument];
      if (raw === undefined) continue;
      const values = (Array.isArray(raw) ? raw : [raw]).map((value) => decodeURIComponent(value));
      const argument = template.list
        ? values.flatMap((value) => value.split(',')).map((item) => item.trim())
        : values.join(',');
      const result = await caller.read(template.tool, { [template.argument]: argument }, ctx);
      const [block] = result.content;
      const text = block?.type === 'text' ? block.text : '{}';
      if (result.isError) {
        // A coded refusal the agent can act on, not an empty resource.
        const { errors } = JSON.parse(text) as { errors: Array<{ code: string; message: string; whatToDo: string }> };
        const first = errors[0]!;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${first.code}: ${first.message} ${first.whatToDo}`, {
          uri,
          errors,
        });
      }
      return {
        contents: [{ uri, mimeType: 'application/json', text }],
        ...(result._meta ? { _meta: result._meta } : {}),
      };
    }
    throw new ResourceNotFoundError(uri);
  }

  private complete(uriTemplate: string, name: string, value: string, client: string): string[] {
    const template = this.templates.find((known) => known.uriTemplate === uriTemplate);
    if (!template || template.argument !== name) return [];
    const typed = value.toLowerCase();
    return this.recent.of(client, template.action).filter((key) => key.toLowerCase().startsWith(typed));
  }

  private completePrompt(prompt: string, name: string, value: string): string[] {
    if (prompt !== 'topic_watch' || name !== 'dateRange') return [];
    return ['PAST_DAY', 'PAST_WEEK', 'PAST_MONTH'].filter((range) => range.startsWith(value.toUpperCase()));
  }

  private prompt(name: string, given: Record<string, string> | undefined): GetPromptResult {
    const prompt = PROMPTS.find((known) => known.name === name);
    if (!prompt)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt "${name}": prompts/list gives the prompts of this server.`,
      );
    const args = given ?? {};
    const missing = prompt.arguments.filter((argument) => argument.required && !args[argument.name]?.trim());
    if (missing.length > 0)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The prompt "${name}" needs ${missing.map((argument) => `"${argument.name}"`).join(', ')}.`,
      );
    return {
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }],
    };
  }
}
