/**
 * Remembered results: an operation answered entirely from the cache is remembered, from the
 * second time it is made, with the cache entries it was built from. The same operation (document,
 * operation name, variables, upstream token) is then answered from it without running a resolver or
 * serialising the data again, for as long as each of those entries is still the one in the cache: a
 * refreshed (@fresh), expired or evicted entry makes the next request run the operation again.
 *
 * Each entry is known by when it was fetched (its `t`): from memory it is read at once; from Redis with
 * the tick's one MGET, the same round trip a cached lookup makes, so a refresh by another replica ends
 * the remembered result too. Only the data is remembered: `extensions.gateway` (sources, ages),
 * Cache-Control, the cost estimate, the lookup metrics and the request log are made for each request as
 * for any other. Not used with tracing on (every lookup has its span), for @fresh, @defer or @stream,
 * for large variables, or for a result with errors or a failed lookup.
 */
import { type DocumentNode, type ExecutionResult, getOperationAST, Kind } from 'graphql';
import { isPromise, type Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { lookupReport } from './lookup-report.js';
import type { GatewayContext } from '../kernel/context.js';
import type { CostReport } from '../cost/meter.js';
import type { LookupReport } from '../kernel/operation.js';
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
  /** The response body for this data, with the request's own extensions spliced in (see `stringify`). */
  stringify: (result: ExecutionResult) => string;
  /** The operation's name as the request log and metrics label it. */
  operationName: string | null;
  /** Its cost estimate: the same document and variables are estimated the same every time. */
  cost: CostReport | null;
}

/** A remembered result whose entries all still stand, with this request's lookup reports. */
type Replay = Omit<Remembered, 'dependencies'> & { lookups: LookupReport[] };

/** The JSON of a result whose data is `json` already: only the extensions are serialised. */
function stringifierFor(data: unknown, json: string): (result: ExecutionResult) => string {
  return (result) => {
    for (const name of Object.keys(result)) {
      // Anything but the remembered data and the extensions (errors, a payload of another shape): the plain way.
      if (name !== 'data' && name !== 'extensions' && name !== 'stringify') return JSON.stringify(result);
    }
    if (result.data !== data) return JSON.stringify(result);
    return result.extensions === undefined ? `{"data":${json}}` : `{"data":${json},"extensions":${JSON.stringify(result.extensions)}}`;
  };
}

const FRESH_READS = new Set([FRESH]);

export class ResultMemo {
  private readonly results: LRUCache<string, Remembered>;
  /** Keys of operations run once: a result is remembered the second time it is made, so one-off operations cost nothing. */
  private readonly seen: LRUCache<string, true>;
  /** Per document: its id in memo keys, or null when its operations always run. */
  private readonly documents = new WeakMap<DocumentNode, number | null>();
  private nextDocumentId = 0;

  constructor(
    private readonly cache: LookupCache,
    maxBytes: number,
  ) {
    // A remembered result holds its data and its JSON: about three times the JSON's length in the heap.
    this.results = new LRUCache({ maxSize: maxBytes, sizeCalculation: (_value, key) => key.length });
    this.seen = new LRUCache({ max: 10_000, maxSize: Math.max(1, maxBytes / 4), sizeCalculation: (_value, key) => key.length });
  }

  /** The memo key of an operation, or null when it is not remembered. */
  keyOf(document: DocumentNode, operationName: string | null | undefined, variablesJson: string, fingerprint: string): string | null {
    let id = this.documents.get(document);
    if (id === undefined) {
      const remembered = document.definitions.every((definition) => definition.kind !== Kind.OPERATION_DEFINITION || definition.operation === 'query');
      // A fresh read always goes upstream; incremental delivery runs on its own executor.
      id = remembered && !usesDirective(document, FRESH_READS) && !usesIncrementalDelivery(document) ? this.nextDocumentId++ : null;
      this.documents.set(document, id);
    }
    if (id === null) return null;
    const key = `${id}\u0000${operationName ?? ''}\u0000${fingerprint}\u0000${variablesJson}`;
    // Operations with large variables run every time rather than hold their variables in memory.
    return key.length <= MAX_KEY_LENGTH ? key : null;
  }

  /**
   * The remembered result for `key` when every entry it was built from is still the one cached (at once
   * from memory; after the tick's read from Redis), with a cache-hit report per lookup.
   */
  replay(key: string, fingerprint: string): Replay | undefined | Promise<Replay | undefined> {
    const remembered = this.results.get(key);
    if (!remembered) return undefined;
    const stamps = remembered.dependencies.map((dependency) => this.cache.storedAt(dependency.action, fingerprint, dependency.key));
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
  record(key: string, ctx: GatewayContext, result: ExecutionResult, operationName: () => string | null): void {
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
    const remembered = { data: result.data, dependencies, stringify, operationName: operationName(), cost: ctx.operation.cost };
    this.results.set(key, remembered, { size: key.length + 3 * json.length });
    // The first response is serialised the remembered way too, so every response of the memo is alike.
    (result as ExecutionResult & { stringify?: unknown }).stringify = stringify;
  }

  /** What the remembered results hold, by the LRU's count against CACHE_RESULTS_MB (the cache size gauges). */
  parts(): CachePart[] {
    return [{ part: 'results', bytes: this.results.calculatedSize, entries: this.results.size }];
  }
}

/**
 * The plugin: after graphql-jit (so it wraps the executor jit chose), answers a remembered operation
 * from the memo and remembers the others. `onReplay` is told each time (a metric).
 */
export function rememberedResults(memo: ResultMemo, onReplay: () => void): Plugin<GatewayContext> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const ctx = args.contextValue;
      const key = memo.keyOf(args.document, args.operationName, ctx.operation.variablesJson(args.variableValues), ctx.tokenFingerprint);
      if (key === null) return;
      setExecuteFn((executionArgs) => {
        const remember = (result: Awaited<ReturnType<typeof executeFn>>) => {
          if (!(Symbol.asyncIterator in result)) memo.record(key, ctx, result, () => nameOf(args.document, args.operationName));
          return result;
        };
        const run = () => {
          const result = executeFn(executionArgs);
          return isPromise(result) ? result.then(remember) : remember(result);
        };
        const answer = (replayed: Replay | undefined) => {
          if (!replayed) return run();
          ctx.operation.lookups.push(...replayed.lookups);
          onReplay();
          return { data: replayed.data, stringify: replayed.stringify } as ExecutionResult;
        };
        const replayed = memo.replay(key, ctx.tokenFingerprint);
        return isPromise(replayed) ? replayed.then(answer) : answer(replayed);
      });
    },
  };
}

/** The operation's name as the request log reports it: the one the document gives, else the one asked for. */
function nameOf(document: DocumentNode, operationName: string | null | undefined): string | null {
  return getOperationAST(document, operationName)?.name?.value ?? operationName ?? null;
}
