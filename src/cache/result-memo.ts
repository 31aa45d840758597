// Own, not envelop's response cache: a result lives while each cache entry it came from is current (any replica), found by text ends in 0.5 µs, not 8.
/**
 * Remembered results: an operation answered entirely from the cache is remembered, from the
 * second time it is made, with the cache entries it was built from. The same request (query text,
 * operation name, variables, upstream token) is then answered from it as soon as Yoga has its
 * parameters (`onParams`): no parsing, validation, context or resolver, and no serialising of the data,
 * for as long as each of those entries is still the one in the cache: a refreshed (@fresh), expired or
 * evicted entry makes the next request run the operation again.
 *
 * Every protection that reads the request itself (auth, rate limit, CSRF, body and batch limits, input
 * depth, persisted and trusted documents) has run by then; the checks of the document (operation
 * limits, cost) gave their verdict when the same text was first run. Each entry is known by when it was
 * fetched (its `t`): from memory it is read at once; from Redis with the tick's one MGET, the same round
 * trip a cached lookup makes, so a refresh by another replica ends the remembered result too. Only the
 * data is remembered: `extensions.gateway` (sources, ages), Cache-Control, the lookup metrics and the
 * request log line are made for each request. With tracing on a replay has one span, the operation's,
 * marked as answered from a remembered result (no lookup ran, so none has a span). Not used for @fresh,
 * @defer or @stream, for large variables, or for a result with errors or a failed lookup.
 */
import { type DocumentNode, type ExecutionResult, Kind } from 'graphql';
import { isPromise, type GraphQLParams, type Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { lookupReport } from './lookup-report.js';
import type { AnsweredOperations, OperationUsage } from './answered.js';
import { describeOperation } from '../kernel/describe-operation.js';
import type { CostReport } from '../cost/meter.js';
import type { LookupReport } from './lookup-report.js';
import { usesIncrementalDelivery } from '../incremental/index.js';
import { usesDirective } from '../kernel/document-directives.js';
import { FRESH } from './fresh.js';
import type { LookupCache } from './lookup-cache.js';
import type { CachePart } from './store.js';

const MAX_KEY_LENGTH = 2048;

interface Dependency {
  action: string;
  key: string;
  /** When the cache entry the result was built from was fetched: the result stands while the cache holds that entry. */
  storedAt: number;
}

interface Remembered {
  data: Record<string, unknown>;
  dependencies: Dependency[];
  /** The response body for this data, with the request's own extensions spliced in (see `stringifierFor`). */
  stringify: Stringify;
  /** The operation's name as the request log and metrics label it. */
  operationName: string | null;
  /** Its cost estimate: the same document and variables are estimated the same every time. */
  cost: CostReport | null;
}

/** A remembered result whose entries all still stand, with this request's lookup reports. */
export type Replay = Omit<Remembered, 'dependencies'> & { lookups: LookupReport[] };

/** What a result is recorded from: the operation's lookups and estimate, and the cache scope of its token. */
interface RecordedContext {
  operation: OperationUsage;
  tokenFingerprint: string;
}

/** A result's `stringify`, as Yoga types it. */
type Stringify = (result: ExecutionResult) => string;

/**
 * The response body of a result whose data is `json` already: only the extensions are serialised. It is
 * UTF-8 bytes, not text: Yoga hands what `stringify` returns to `new Response()`, which takes both, and a
 * body of bytes is not encoded again for every request (the sandbox's profiles hold emoji, so their text
 * is two bytes a character and encoding 12 KB of it cost more than everything else a replay does).
 */
function stringifierFor(data: unknown, json: string): Stringify {
  const head = Buffer.from(`{"data":${json}`);
  const stringify = (result: ExecutionResult): string | Buffer => {
    for (const name of Object.keys(result)) {
      // Anything but the remembered data and the extensions (errors, a payload of another shape): the plain way.
      if (name !== 'data' && name !== 'extensions' && name !== 'stringify') return JSON.stringify(result);
    }
    if (result.data !== data) return JSON.stringify(result);
    const tail = result.extensions === undefined ? '}' : `,"extensions":${JSON.stringify(result.extensions)}}`;
    return Buffer.concat([head, Buffer.from(tail)]);
  };
  return stringify as Stringify;
}

// A fresh read always goes upstream; a live query (@live) streams its results.
const FRESH_READS = new Set([FRESH, 'live']);

/**
 * A query text's key among the remembered texts: its length and ends, the whole text compared after.
 * Each request's text is a new string, and hashing all of it (5 KB for the full profile) cost more than
 * the rest of a replay's lookups; comparing it is a fraction of that.
 */
function textKey(query: string): string {
  return `${query.length}\u0000${query.slice(0, 32)}\u0000${query.slice(-96)}`;
}

function keyOf(textId: number, params: GraphQLParams, fingerprint: string): string | null {
  const key = `${textId}\u0000${params.operationName ?? ''}\u0000${fingerprint}\u0000${JSON.stringify(params.variables ?? null)}`;
  // Operations with large variables run every time rather than hold their variables in memory.
  return key.length <= MAX_KEY_LENGTH ? key : null;
}

export class ResultMemo {
  private readonly results: LRUCache<string, Remembered>;
  /** Keys of operations run once: a result is remembered the second time it is made, so one-off operations cost nothing. */
  private readonly seen: LRUCache<string, true>;
  /** Per document: whether its operations may be remembered. */
  private readonly documents = new WeakMap<DocumentNode, boolean>();
  /** The query texts of remembered documents, each with the id its results are keyed by (see `textKey`). */
  private readonly texts: LRUCache<string, { text: string; id: number }>;
  private nextTextId = 0;

  constructor(
    private readonly cache: LookupCache,
    maxBytes: number,
  ) {
    // A remembered result holds its data and its JSON: about three times the JSON's length in the heap.
    this.results = new LRUCache({ maxSize: maxBytes, sizeCalculation: (_value, key) => key.length });
    this.seen = new LRUCache({
      max: 10_000,
      maxSize: Math.max(1, maxBytes / 4),
      sizeCalculation: (_value, key) => key.length,
    });
    this.texts = new LRUCache({
      max: 10_000,
      maxSize: Math.max(1, maxBytes / 4),
      sizeCalculation: (value) => value.text.length,
    });
  }

  /** Whether the operations of `document` may be remembered: queries without @fresh, @defer or @stream. */
  remembers(document: DocumentNode): boolean {
    let remembered = this.documents.get(document);
    if (remembered === undefined) {
      // A fresh read always goes upstream; incremental delivery runs on its own executor.
      remembered =
        document.definitions.every(
          (definition) => definition.kind !== Kind.OPERATION_DEFINITION || definition.operation === 'query',
        ) &&
        !usesDirective(document, FRESH_READS) &&
        !usesIncrementalDelivery(document);
      this.documents.set(document, remembered);
    }
    return remembered;
  }

  /** The memo key of a request's parameters before they are parsed: null unless their text has been remembered. */
  replayKey(params: GraphQLParams, fingerprint: string): string | null {
    const id = typeof params.query === 'string' ? this.textId(params.query) : undefined;
    return id === undefined ? null : keyOf(id, params, fingerprint);
  }

  /** The memo key of an operation of `document` about to run, or null when it is not remembered. */
  recordKey(params: GraphQLParams, fingerprint: string, document: DocumentNode): string | null {
    if (typeof params.query !== 'string' || !this.remembers(document)) return null;
    let id = this.textId(params.query);
    if (id === undefined) {
      id = this.nextTextId++;
      this.texts.set(textKey(params.query), { text: params.query, id });
    }
    return keyOf(id, params, fingerprint);
  }

  private textId(query: string): number | undefined {
    const known = this.texts.get(textKey(query));
    return known?.text === query ? known.id : undefined;
  }

  /**
   * The remembered result for `key` when every entry it was built from is still the one cached (at once
   * from memory; after the tick's read from Redis), with a cache-hit report per lookup.
   */
  replay(key: string, fingerprint: string): Replay | undefined | Promise<Replay | undefined> {
    const remembered = this.results.get(key);
    if (!remembered) return undefined;
    const stamps = remembered.dependencies.map((dependency) =>
      this.cache.storedAt(dependency.action, fingerprint, dependency.key),
    );
    return stamps.some(isPromise)
      ? Promise.all(stamps).then((settled) => this.answer(key, remembered, settled))
      : this.answer(key, remembered, stamps as Array<number | undefined>);
  }

  private answer(key: string, remembered: Remembered, stamps: Array<number | undefined>): Replay | undefined {
    if (remembered.dependencies.some((dependency, index) => stamps[index] !== dependency.storedAt)) {
      if (this.results.get(key) === remembered) this.results.delete(key);
      return undefined;
    }
    const lookups: LookupReport[] = [];
    for (const { action, key: lookupKey, storedAt } of remembered.dependencies) {
      lookups.push(lookupReport(this.cache, action, lookupKey, this.cache.hit(action, lookupKey, storedAt)));
    }
    const { dependencies: _checked, ...replay } = remembered;
    return { ...replay, lookups };
  }

  /** Remembers a result made only of cached values the cache still holds. */
  record(key: string, ctx: RecordedContext, result: ExecutionResult, operationName: () => string | null): void {
    if (result.errors?.length || !result.data) return;
    const lookups = ctx.operation.lookups;
    if (lookups.length === 0) return;
    if (!this.seen.has(key)) {
      this.seen.set(key, true);
      return;
    }
    const dependencies: Dependency[] = [];
    for (const lookup of lookups) {
      if (lookup.failed || lookup.storedAt === undefined) return;
      // The entry the value came from: should another request store a newer one (a @fresh read while this
      // one ran, another replica), the stamps differ and the replay runs the operation instead.
      dependencies.push({ action: lookup.action, key: lookup.key, storedAt: lookup.storedAt });
    }
    const json = JSON.stringify(result.data);
    const stringify = stringifierFor(result.data, json);
    // The key's length stands for its size in the LRU: data and JSON count about three times the JSON.
    const remembered = {
      data: result.data,
      dependencies,
      stringify,
      operationName: operationName(),
      cost: ctx.operation.cost,
    };
    this.results.set(key, remembered, { size: key.length + 3 * json.length });
    // The first response is serialised the remembered way too, so every response of the memo is alike.
    (result as ExecutionResult & { stringify?: unknown }).stringify = stringify;
  }

  /** What the remembered results hold, by the LRU's count against CACHE_RESULTS_MB (the cache size gauges). */
  parts(): CachePart[] {
    return [{ part: 'results', bytes: this.results.calculatedSize, entries: this.results.size }];
  }
}

/** What the composition root gives the plugin. */
export interface ReplayOptions {
  /** The fingerprint of the upstream token a request uses (its cache scope). */
  fingerprintOf(request: Request): string;
  /** Where a replay is added as the request's operation, for Cache-Control, the request log and `extensions.gateway`. */
  answered: AnsweredOperations;
  /** Told of each replay (the metrics). */
  countReplay(): void;
  /** With tracing on: the replay told on the request's span. */
  traced?(request: Request, replayed: { name: string | null; usage: Pick<Replay, 'cost' | 'lookups'> }): void;
}

/**
 * The plugin: answers a remembered request at `onParams`, and remembers the others when they are done
 * (after graphql-jit, whose result it records).
 */
export function useRememberedResults(memo: ResultMemo, options: ReplayOptions): Plugin<RecordedContext> {
  return {
    onParams({ params, request, setResult }) {
      const fingerprint = options.fingerprintOf(request);
      const key = memo.replayKey(params, fingerprint);
      if (key === null) return;
      const answer = (replay: Replay | undefined) => {
        if (!replay) return;
        options.countReplay();
        const usage = { upstreamCalls: 0, cost: replay.cost, lookups: replay.lookups };
        options.answered.add(request, {
          name: replay.operationName,
          type: 'query',
          usage,
          variables: params.variables,
          errors: false,
        });
        options.traced?.(request, { name: replay.operationName, usage });
        setResult({ data: replay.data, stringify: replay.stringify } as ExecutionResult);
      };
      const replay = memo.replay(key, fingerprint);
      return isPromise(replay) ? replay.then(answer) : answer(replay);
    },
    onExecute({ args }) {
      const ctx = args.contextValue as RecordedContext & { params?: GraphQLParams };
      const key = ctx.params ? memo.recordKey(ctx.params, ctx.tokenFingerprint, args.document) : null;
      if (key === null) return;
      return {
        onExecuteDone({ result }) {
          if (!(Symbol.asyncIterator in result))
            memo.record(key, ctx, result, () => describeOperation(args.document, args.operationName).name);
        },
      };
    },
  };
}
