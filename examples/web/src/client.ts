import { cacheExchange } from '@urql/exchange-graphcache';
import { persistedExchange } from '@urql/exchange-persisted';
import type { DocumentNode } from 'graphql';
import { Client, fetchExchange, type Exchange } from 'urql';
import * as documents from './gql/graphql';

/**
 * One urql client: Graphcache (normalised cache, @defer support), then, in persisted-documents mode,
 * the persisted exchange (sends the hash codegen put in each document, never the text), then fetch.
 *
 * - The gateway is reached at VITE_GATEWAY_URL, by default /graphql on the page's own origin (the
 *   Vite dev server and `vite preview` proxy it to the gateway, so no CORS is involved).
 * - Persisted documents: on in production builds, off in `vite` dev (VITE_PERSISTED_DOCUMENTS=true|false
 *   overrides). Persisted queries go as GET, which Yoga's CSRF prevention accepts with the
 *   x-graphql-yoga-csrf header, sent on every request.
 * - VITE_GATEWAY_API_KEY, when the gateway runs with API keys, goes as x-api-key.
 */
const env = import.meta.env;
export const GATEWAY_URL: string = env.VITE_GATEWAY_URL || '/graphql';
export const PERSISTED: boolean = env.VITE_PERSISTED_DOCUMENTS ? env.VITE_PERSISTED_DOCUMENTS === 'true' : env.PROD;

/** Bytes of the last response body per operation name, for the Profile viewer. */
export const responseBytes = new Map<string, number>();
const listeners = new Set<() => void>();
export function onResponseBytes(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const measuringFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, window.location.href);
  let name = url.searchParams.get('operationName');
  if (!name && typeof init?.body === 'string') name = (JSON.parse(init.body) as { operationName?: string }).operationName ?? null;
  // A single JSON answer is read here and handed on whole; incremental (multipart) answers stream through.
  if (!name || !(response.headers.get('content-type') ?? '').includes('json')) return response;
  const body = await response.arrayBuffer();
  responseBytes.set(name, body.byteLength);
  listeners.forEach((listener) => listener());
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};

const headers: Record<string, string> = { 'x-graphql-yoga-csrf': 'lookup-graph-web' };
if (env.VITE_GATEWAY_API_KEY) headers['x-api-key'] = env.VITE_GATEWAY_API_KEY;

// Every object the app reads, with its key where it has a natural one, else embedded in its parent.
const embedded = () => null;
const cache = cacheExchange({
  keys: {
    Company: (c) => (c.domain as string) ?? null,
    DomainRecord: (d) => (d.domainName as string) ?? null,
    FinancialProfile: (f) => (f.symbol as string) ?? null,
    PhotosocialProfile: (p) => (p.username as string) ?? null,
    ProfessionalProfile: (p) => (p.handle as string) ?? null,
    CompanyCategory: embedded, CompanyMetrics: embedded, PriceRange: embedded, DomainRegistrar: embedded,
    ProfessionalLocation: embedded, ProfessionalNetworkInfo: embedded, ProfessionalPositionGroup: embedded,
    ProfessionalCompany: embedded, ProfessionalPosition: embedded, ProfessionalEducation: embedded, ProfessionalSchool: embedded,
    VideositeSearch: embedded, VideositeSearchInformation: embedded, VideositeSearchVideo: embedded, VideositeSearchChannel: embedded,
    VideoThumbnail: embedded, VideositeTranscript: embedded, VideositeTranscriptVideo: embedded, VideositeChannel: embedded,
    VideositeChannelProfile: embedded, VideositeChannelAbout: embedded, VideositeHighlightedVideo: embedded,
    VideositeVideoSection: embedded, VideositeSectionVideo: embedded,
  },
});

// codegen's client preset puts "sha256:<hex>" of the printed document in each document's __meta__.
// Graphcache hands the exchanges a copy of the document (with __typename added, which codegen's
// documents already have), so the hash is found again by operation name.
const operationName = (document: DocumentNode): string | undefined =>
  document.definitions.find((d) => d.kind === 'OperationDefinition')?.name?.value;
const hashes = new Map<string, string>();
for (const value of Object.values(documents)) {
  const hash = (value as { __meta__?: { hash?: string } })?.__meta__?.hash;
  const name = hash && operationName(value as DocumentNode);
  if (hash && name) hashes.set(name, hash);
}

const persisted: Exchange = persistedExchange({
  enforcePersistedQueries: true,
  enableForMutation: true,
  generateHash: async (_query, document) => {
    const hash = (document as { __meta__?: { hash?: string } }).__meta__?.hash ?? hashes.get(operationName(document) ?? '');
    if (!hash) throw new Error(`No persisted document for operation ${operationName(document) ?? '(anonymous)'}: run npm run codegen`);
    return hash;
  },
});

export const client = new Client({
  url: GATEWAY_URL,
  exchanges: PERSISTED ? [cache, persisted, fetchExchange] : [cache, fetchExchange],
  fetch: measuringFetch,
  fetchOptions: { headers },
  preferGetMethod: false,
});
