import { cacheExchange } from '@urql/exchange-graphcache';
import { persistedExchange } from '@urql/exchange-persisted';
import { Client, fetchExchange, type Exchange } from 'urql';

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
  if (name && (response.headers.get('content-type') ?? '').includes('json')) {
    const operation = name;
    void response
      .clone()
      .arrayBuffer()
      .then((body) => {
        responseBytes.set(operation, body.byteLength);
        listeners.forEach((listener) => listener());
      });
  }
  return response;
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

const persisted: Exchange = persistedExchange({
  enforcePersistedQueries: true,
  enableForMutation: true,
  // codegen's client preset put "sha256:<hex>" of the printed document in each document's __meta__.
  generateHash: async (_query, document) => (document as unknown as { __meta__: { hash: string } }).__meta__.hash,
});

export const client = new Client({
  url: GATEWAY_URL,
  exchanges: PERSISTED ? [cache, persisted, fetchExchange] : [cache, fetchExchange],
  fetch: measuringFetch,
  fetchOptions: { headers },
  preferGetMethod: false,
});
