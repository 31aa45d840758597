import { createHash } from 'node:crypto';
import { printExecutableGraphQLDocument } from '@graphql-tools/documents';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import {
  Kind,
  parse,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { rejection } from './errors.js';

/**
 * Trusted documents (TRUSTED_DOCUMENTS_FILE): only the operations of the file run. A client names one
 * by its sha256, as the common clients send it:
 * - `documentId: "sha256:<hex>"` (the GraphQL-over-HTTP persisted-documents appendix; GraphQL Code
 *   Generator's client preset), in a POST body or as a GET parameter;
 * - `extensions: { persistedQuery: { version: 1, sha256Hash } }` (Apollo Client, urql's
 *   persistedExchange), with the bare hex or the `sha256:` form.
 * A raw query is PERSISTED_QUERY_ONLY, an unknown id PERSISTED_QUERY_NOT_FOUND, a request with
 * neither PERSISTED_QUERY_ID_REQUIRED, a query sent with its hash to register it (automatic persisted
 * queries, after a PERSISTED_QUERY_NOT_FOUND) PERSISTED_QUERY_REGISTRATION_REFUSED; all HTTP 400.
 * The trusted documents still pass the limits.
 */
export function useTrustedDocuments(documents: Map<string, string>): Plugin {
  const trusted = usePersistedOperations({
    allowArbitraryOperations: false,
    extractPersistedOperationId: (params, request) => requestedDocumentId(params, request),
    getPersistedOperation: (id) => trustedDocumentText(documents, id),
    customErrors: {
      notFound: {
        message: "This operation is not one of the gateway's trusted documents.",
        extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
      },
      persistedQueryOnly: {
        message:
          'Only trusted documents run here: send documentId "sha256:<hex>" (or extensions.persistedQuery { version: 1, sha256Hash }) instead of a query.',
        extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
      },
      keyNotFound: {
        message:
          'Send documentId "sha256:<hex>" (or extensions.persistedQuery { version: 1, sha256Hash }) naming a trusted document.',
        extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED', http: { status: 400 } },
      },
    },
  }) as Plugin;
  return {
    ...trusted,
    onParams(payload) {
      if (typeof payload.params.query === 'string' && persistedQueryHash(payload.params.extensions) !== null) {
        throw rejection(
          'PERSISTED_QUERY_REGISTRATION_REFUSED',
          "Only the gateway's trusted documents run here; it registers no query. Add the operation to the trusted documents (npm run trusted-documents) and deploy them.",
          400,
        );
      }
      return trusted.onParams?.(payload);
    },
  };
}

/**
 * ANONYMOUS_ACCESS=trusted-documents: a request that came without a credential (let in by the client
 * auth) runs a trusted document or nothing: a raw query or an unknown id is 401 UNAUTHENTICATED with the
 * sign-in challenge, before the trusted-documents check would answer it with a 400. Before useTrustedDocuments.
 */
export function useAnonymousTrustedDocuments(
  documents: Map<string, string>,
  isAnonymous: (request: Request) => boolean,
  challenge: () => Record<string, string>,
): Plugin {
  return {
    onParams({ params, request }) {
      if (!isAnonymous(request)) return;
      const id = requestedDocumentId(params, request);
      const trusted = id !== null && trustedDocumentText(documents, id) !== null;
      if (!trusted || typeof params.query === 'string')
        throw rejection(
          'UNAUTHENTICATED',
          "Without a sign-in only the site's trusted documents run: send one's documentId, or sign in (an access token or an API key) to run this operation.",
          401,
          { headers: challenge() },
        );
    },
  };
}

/** The document id a request names: `documentId` (body or GET parameter), else Apollo's persistedQuery. */
function requestedDocumentId(params: GraphQLParams & { documentId?: unknown }, request: Request): string | null {
  if (request.method === 'GET' && typeof params.documentId !== 'string') {
    const fromUrl = new URL(request.url).searchParams.get('documentId');
    if (fromUrl) return fromUrl;
  }
  return documentIdOfBody(params);
}

/** The document id a POST body names: `documentId`, else Apollo's persistedQuery; null when it names none. */
function documentIdOfBody(params: { documentId?: unknown; extensions?: unknown }): string | null {
  return typeof params.documentId === 'string' ? params.documentId : persistedQueryHash(params.extensions);
}

function persistedQueryHash(extensions: unknown): string | null {
  const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | null | undefined)
    ?.persistedQuery;
  return persisted && persisted.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : null;
}

/** The text of the trusted document `id` names, or null (Yoga's plugin answers PERSISTED_QUERY_NOT_FOUND). */
function trustedDocumentText(documents: Map<string, string>, id: string): string | null {
  const hex = sha256HexOf(id);
  return hex === null ? null : (documents.get(hex) ?? null);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** `sha256:<hex>` or bare `<hex>` → the lower-case hex; any other id (another algorithm, a custom id) → null. */
function sha256HexOf(id: string): string | null {
  const hex = (id.startsWith('sha256:') ? id.slice('sha256:'.length) : id).toLowerCase();
  return SHA256_HEX.test(hex) ? hex : null;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Reads the trusted documents of one JSON value, as the tools write them:
 * - GraphQL Code Generator's client preset `persisted-documents.json` and `npm run trusted-documents`:
 *   `{ "sha256:<hex>": "<document>" }`; bare `"<hex>"` keys too;
 * - Apollo's persisted-query manifest (`@apollo/generate-persisted-query-manifest`):
 *   `{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id", "name", "type", "body" }] }`.
 * Every id must be the sha256 of its document's exact text (what the tools hash, and so what the
 * client sends), and every document must parse. Returns hex → document; each problem is pushed.
 */
export function readTrustedDocumentsJson(
  value: unknown,
  problems: string[],
  label = 'TRUSTED_DOCUMENTS_FILE',
): Map<string, string> {
  const documents = new Map<string, string>();
  const take = (id: unknown, document: unknown, where: string) => {
    const hex = typeof id === 'string' ? sha256HexOf(id) : null;
    if (typeof document !== 'string') {
      problems.push(`${label}: ${where} has no document text`);
      return;
    }
    if (hex === null) {
      problems.push(
        `${label}: ${where} is not a sha256 id ("sha256:<64 hex>" or 64 hex characters; codegen's hashAlgorithm must be sha256, its default)`,
      );
      return;
    }
    if (sha256Hex(document) !== hex) {
      problems.push(`${label}: "${String(id).slice(0, 16)}…" is not the sha256 of its document`);
      return;
    }
    try {
      parse(document);
    } catch {
      problems.push(`${label}: the document "${String(id).slice(0, 16)}…" does not parse`);
      return;
    }
    documents.set(hex, document);
  };

  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${label} must be a JSON object of sha256 id -> document, or an Apollo persisted-query manifest`);
    return documents;
  }
  const record = value as Record<string, unknown>;
  if (record.format === 'apollo-persisted-query-manifest') {
    if (record.version !== 1 || !Array.isArray(record.operations)) {
      problems.push(`${label}: an Apollo persisted-query manifest must have "version": 1 and an "operations" list`);
      return documents;
    }
    record.operations.forEach((operation: unknown, index) => {
      const entry = (operation ?? {}) as { id?: unknown; body?: unknown; name?: unknown };
      take(entry.id, entry.body, `operations[${index}]${typeof entry.name === 'string' ? ` (${entry.name})` : ''}`);
    });
    return documents;
  }
  for (const [id, document] of Object.entries(record))
    take(id, document, `"${id.slice(0, 23)}${id.length > 23 ? '…' : ''}"`);
  return documents;
}

export interface PrintOptions {
  /** Add `__typename` to every selection set, as urql, Apollo Client and codegen's addTypenameSelectionDocumentTransform do. */
  addTypename?: boolean;
}

/**
 * The persisted documents of GraphQL source text, computed as GraphQL Code Generator's client preset
 * computes them: one document per operation holding the operation and every fragment it uses
 * (from any of the sources), `@client` fields and `@connection` directives removed, printed by
 * `printExecutableGraphQLDocument` (definitions, fields and arguments sorted, whitespace collapsed),
 * keyed `sha256:<hex>` of that text.
 */
export function persistedDocumentsOf(sources: string[], options: PrintOptions = {}): Record<string, string> {
  const definitions: DefinitionNode[] = sources.flatMap((source) => parse(source).definitions);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      if (fragments.has(definition.name.value))
        throw new Error(`the fragment ${definition.name.value} is defined twice`);
      fragments.set(definition.name.value, definition);
    }
  }
  const result: Record<string, string> = {};
  for (const operation of definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )) {
    let document: DocumentNode = {
      kind: Kind.DOCUMENT,
      definitions: [operation, ...usedFragments(operation, fragments)],
    };
    if (options.addTypename) document = withTypename(document);
    const text = printExecutableGraphQLDocument(withoutClientOnly(document));
    result[`sha256:${sha256Hex(text)}`] = text;
  }
  return result;
}

function usedFragments(root: DefinitionNode, fragments: Map<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const seen = new Map<string, FragmentDefinitionNode>();
  const walk = (node: DefinitionNode) => {
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (seen.has(name)) return;
        const fragment = fragments.get(name);
        if (!fragment) throw new Error(`the fragment ${name} is used but not defined`);
        seen.set(name, fragment);
        walk(fragment);
      },
    });
  };
  walk(root);
  return [...seen.values()];
}

/** As codegen's client preset: fields and fragments marked `@client` go, and so do `@connection` directives. */
function withoutClientOnly(document: DocumentNode): DocumentNode {
  const client = (node: { directives?: readonly { name: { value: string } }[] }) =>
    node.directives?.some((d) => d.name.value === 'client');
  return visit(document, {
    Field: (node) => (client(node) ? null : undefined),
    FragmentSpread: (node) => (client(node) ? null : undefined),
    InlineFragment: (node) => (client(node) ? null : undefined),
    Directive: (node) => (node.name.value === 'connection' ? null : undefined),
  });
}

/** `__typename` in every selection set that lacks it, except a subscription's root. */
function withTypename(document: DocumentNode): DocumentNode {
  return visit(document, {
    SelectionSet(node, _key, parent) {
      const subscriptionRoot =
        !!parent &&
        !Array.isArray(parent) &&
        (parent as { kind?: string }).kind === Kind.OPERATION_DEFINITION &&
        (parent as OperationDefinitionNode).operation === 'subscription';
      if (subscriptionRoot || node.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename'))
        return undefined;
      return {
        ...node,
        selections: [{ kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } }, ...node.selections],
      };
    },
  });
}
