/**
 * The replay route: a repeat of a remembered operation (src/cache/result-memo.ts) answered at the HTTP
 * layer, before Yoga. A remembered result is only ever made by a request that passed every step of Yoga's
 * pipeline, and what those steps decide of a query (its parse, validation, document limits, variables,
 * cost) depends only on the document, the operation name and the variables, which are the memo's key with
 * the token. What depends on the request itself is checked here by the same code the plugins run: the
 * client's auth and rate limit (src/security), CORS, the body size. The response is the one Yoga would
 * send: its media type chosen from Accept as Yoga chooses it, `extensions.gateway`, Cache-Control,
 * compression, the request metrics and log line.
 *
 * With trusted documents on, a request names its document by id, as codegen's persisted documents and
 * Apollo's persisted queries do; the id is looked up in the same trusted documents the plugin serves.
 *
 * Anything else goes to Yoga untouched, or, once the body is read, with the body and its parse
 * (src/parsed-params.ts): another method or path,
 * a body that is not one plain JSON operation (a batch, an unknown id, a query text where only trusted
 * documents run), an Accept only a stream satisfies, a request a protection refuses (Yoga makes the
 * refusal), an operation not remembered or whose cache entries changed.
 *
 * Measured (npm run bench): Yoga's per-request machinery (the whatwg-node Request and Response, the
 * Envelop hooks of fifteen plugins) was most of a cached operation's cost.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { DocumentNode } from 'graphql';
import { isPromise } from 'graphql-yoga';
import { cacheControlFor } from './cache/cache-control.js';
import type { Replay, ResultMemo } from './cache/result-memo.js';
import { chooseEncoding, compressDynamic } from './compression.js';
import { DocumentCache } from './document-cache.js';
import { handParsedParams } from './parsed-params.js';
import type { Metrics } from './metrics.js';
import type { Admission, Security } from './security/index.js';
import { documentIdOfBody, trustedDocumentText } from './security/trusted-documents.js';
import { reportRequest, traceparentId, type RequestLogOptions } from './telemetry/request-log.js';

export interface ReplayRouteDeps {
  memo: ResultMemo;
  /** Yoga's parsed documents, by query text: a text Yoga never parsed has nothing remembered. */
  documents: DocumentCache<DocumentNode>;
  security: Pick<Security, 'admitPlainPost' | 'corsHeaders' | 'trustedDocuments'>;
  /** The cache's fingerprint of the upstream token the request uses (null: ACTION_TOKEN). */
  fingerprint: (upstreamToken: string | null) => string;
  /** `extensions.gateway` of a replayed operation. */
  report: (replay: Replay) => unknown;
  /** Cache-Control may say public (GATEWAY_AUTH=none). */
  shareable: boolean;
  /** COMPRESS_MIN_BYTES; 0: never compressed. */
  compressMinBytes: number;
  requestLog: RequestLogOptions;
  metrics: Pick<Metrics, 'observeOutcome' | 'observeReplay'>;
}

const DIGITS = /^\d+$/;
const DATA_OPEN = Buffer.from('{"data":');
/** Bodies of operations replayed before, kept up to this size: a repeat skips the JSON parse and the key. */
const KEPT_BODY_MAX = 8 * 1024;
const JSON_TYPE = /^application\/json\s*(;|$)/i;
const PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);
/** With trusted documents, a request names its document by id (src/security/trusted-documents.ts). */
const TRUSTED_PARAMETERS = new Set([...PARAMETERS, 'documentId']);
const REGULAR_TYPES = ['application/graphql-response+json', 'application/json'] as const;

interface PlainOperation {
  query: string;
  variables: Record<string, unknown> | null | undefined;
  operationName: string | null | undefined;
}

/** A body parsed as JSON: its object, and the operation in it when it is one plain operation. */
interface ParsedJson {
  params: Record<string, unknown>;
  operation: PlainOperation | null;
}

interface ParsedBody {
  operation: PlainOperation;
  document: DocumentNode;
  variablesJson: string;
}

export function replayRoute(deps: ReplayRouteDeps, yoga: RequestListener): RequestListener {
  // Found by the body's length and a sample of its characters, then compared whole (as Yoga's documents are).
  const bodies = new DocumentCache<ParsedBody>(256);
  const parse = (json: ParsedJson | null): ParsedBody | null => {
    const operation = json?.operation;
    const document = operation && deps.documents.get(operation.query);
    return operation && document ? { operation, document, variablesJson: JSON.stringify(operation.variables ?? null) } : null;
  };

  const answer = (req: IncomingMessage, res: ServerResponse, started: number, operation: PlainOperation, mediaType: string, replay: Replay) => {
    const extensions = `,"extensions":${JSON.stringify({ gateway: deps.report(replay) })}}`;
    const headers: Record<string, string | string[]> = {
      'Content-Type': `${mediaType}; charset=utf-8`,
      'cache-control': cacheControlFor(replay.lookups, false, deps.shareable),
    };
    const vary: string[] = [];
    for (const [name, value] of deps.security.corsHeaders(req.headers.origin)) {
      if (name === 'Vary') vary.push(value);
      else headers[name] = value;
    }
    const length = DATA_OPEN.length + replay.bytes.length + Buffer.byteLength(extensions);
    const compressible = deps.compressMinBytes > 0 && length >= deps.compressMinBytes;
    const encoding = compressible ? chooseEncoding(req.headers['accept-encoding'] ?? null) : null;
    if (compressible) vary.push('Accept-Encoding');
    if (vary.length > 0) headers.vary = vary.join(', ');
    if (encoding) {
      const body = compressDynamic[encoding](Buffer.concat([DATA_OPEN, replay.bytes, Buffer.from(extensions)]));
      headers['content-encoding'] = encoding;
      headers['content-length'] = String(body.length);
      res.writeHead(200, headers).end(body);
    } else {
      // The remembered bytes as they are, between the two small parts: writes in one tick leave in one writev,
      // and a large result is not copied into a new buffer for every response.
      headers['content-length'] = String(length);
      res.writeHead(200, headers);
      res.write(DATA_OPEN);
      res.write(replay.bytes);
      res.end(extensions);
    }

    deps.metrics.observeOutcome('ok');
    deps.metrics.observeReplay('http');
    reportRequest(deps.requestLog, {
      operation: replay.operationName,
      operationType: 'query',
      batch: null,
      status: 200,
      durationMs: performance.now() - started,
      usages: [{ upstreamCalls: 0, cost: replay.cost }],
      errorCodes: [],
      traceId: traceparentId(single(req.headers.traceparent)),
      variables: () => [operation.variables ?? null],
    });
  };

  const replayOrPass = (req: IncomingMessage, res: ServerResponse, started: number, mediaType: string, upstreamToken: string | null, body: Buffer) => {
    let json: ParsedJson | null = null;
    const pass = () => {
      // The body is read: whatwg-node takes it from here instead of the spent stream, and Yoga's parser
      // takes this request's own parse of it.
      (req as IncomingMessage & { body?: Buffer }).body = body;
      if (json) handParsedParams(req, json.params);
      yoga(req, res);
    };
    try {
      const text = body.toString('utf8');
      const keepable = text.length <= KEPT_BODY_MAX;
      const kept = keepable ? bodies.get(text) : undefined;
      if (!kept) json = parseJson(text, deps.security.trustedDocuments);
      const parsed = kept ?? parse(json);
      if (!parsed) return pass();
      const { operation, document, variablesJson } = parsed;
      const fingerprint = deps.fingerprint(upstreamToken);
      const key = deps.memo.keyOf(document, operation.operationName, variablesJson, fingerprint);
      if (key === null) return pass();
      const settle = (replay: Replay | undefined) => {
        if (!replay) return pass();
        if (!kept && keepable) bodies.set(text, parsed);
        answer(req, res, started, operation, mediaType, replay);
      };
      const replay = deps.memo.replay(key, fingerprint);
      if (isPromise(replay)) {
        // A failed check (Redis) runs the operation in Yoga; a failure while answering, before anything was sent, too.
        replay.then(settle, pass).catch(() => {
          if (!res.headersSent) pass();
        });
      } else settle(replay);
    } catch {
      // Whatever failed here, Yoga answers the request as it would have.
      if (!res.headersSent) pass();
    }
  };

  return (req, res) => {
    if (req.method !== 'POST' || req.url !== '/graphql') return yoga(req, res);
    const declared = req.headers['content-length'];
    const mediaType = regularMediaType(req.headers.accept);
    // An empty body is Yoga's to refuse: whatwg-node would wait for the spent stream of a body of 0 bytes.
    if (!declared || !DIGITS.test(declared) || Number(declared) === 0 || !JSON_TYPE.test(req.headers['content-type'] ?? '') || mediaType === null) {
      return yoga(req, res);
    }
    const started = performance.now();
    const admission = deps.security.admitPlainPost(req, Number(declared));
    const read = (admitted: Admission | null) => {
      if (!admitted) return yoga(req, res);
      // Node's parser delivers exactly Content-Length bytes, and the size was admitted on it.
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.once('end', () => {
        replayOrPass(req, res, started, mediaType, admitted.upstreamToken, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      });
    };
    if (isPromise(admission)) admission.then(read, () => yoga(req, res));
    else read(admission);
  };
}

/** The body's JSON object with the plain operation in it, or null when the body is not a JSON object. */
function parseJson(body: string, trusted: Map<string, string> | null): ParsedJson | null {
  let params: unknown;
  try {
    params = JSON.parse(body);
  } catch {
    return null;
  }
  return isObject(params) ? { params, operation: plainOperation(params, trusted) } : null;
}

/**
 * The body as one operation with only the parameters Yoga accepts, or null: a query text, or with trusted
 * documents on, a document id (documentId or Apollo's persistedQuery) naming one of them and no query text.
 */
function plainOperation(params: Record<string, unknown>, trusted: Map<string, string> | null): PlainOperation | null {
  const accepted = trusted ? TRUSTED_PARAMETERS : PARAMETERS;
  for (const name in params) if (!accepted.has(name)) return null;
  const { variables, operationName, extensions } = params;
  if (variables != null && !isObject(variables)) return null;
  if (operationName != null && typeof operationName !== 'string') return null;
  if (extensions != null && !isObject(extensions)) return null;
  const query = trusted ? trustedQuery(params, trusted) : params.query;
  if (typeof query !== 'string') return null;
  return { query, variables, operationName };
}

/** The trusted document a body names, when it names one and sends no query text (which Yoga refuses). */
function trustedQuery(params: Record<string, unknown>, trusted: Map<string, string>): string | null {
  if (params.query != null) return null;
  const id = documentIdOfBody(params);
  return id === null ? null : trustedDocumentText(trusted, id);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The media type Yoga answers a single result with for this Accept header, chosen as Yoga's result
 * processors choose it (graphql-yoga's use-result-processor: the header's types from last to first, each
 * against the processors in turn, the last match winning, and the regular JSON processor last); null when
 * none of the two JSON types is acceptable (Yoga streams the result, or answers 406).
 */
export function regularMediaType(accept: string | undefined): RegularType | null {
  let chosen = CHOSEN.get(accept);
  if (chosen === undefined) {
    chosen = chooseRegularType(accept);
    // Clients send a handful of Accept headers; a client sending ever new ones cannot grow this.
    if (CHOSEN.size >= 64) CHOSEN.clear();
    CHOSEN.set(accept, chosen);
  }
  return chosen;
}

type RegularType = (typeof REGULAR_TYPES)[number];
const CHOSEN = new Map<string | undefined, RegularType | null>();

function chooseRegularType(accept: string | undefined): RegularType | null {
  const asked = (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',');
  let chosen: RegularType | null = null;
  for (let i = asked.length - 1; i >= 0; i--) {
    const [type = '', ...params] = asked[i]!.split(';');
    if ((params.find((param) => param.includes('charset=')) ?? 'charset=utf-8') !== 'charset=utf-8') continue;
    const [group, subtype] = type.split('/');
    for (const candidate of REGULAR_TYPES) {
      const [candidateGroup, candidateSubtype] = candidate.split('/');
      if ((group === '*' || group === candidateGroup) && (subtype === '*' || subtype === candidateSubtype)) chosen = candidate;
    }
  }
  return chosen;
}
