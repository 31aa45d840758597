/**
 * Live queries: a query operation marked `@live` is answered over Server-Sent Events or a multipart response
 * as a stream of results: the first at once, then a new one only when a value in it changed. Hand-written
 * around graphql-live-query's directive check: its stores re-execute every subscribed operation on each
 * invalidation (a call per watcher); here each lookup the operation made is watched in the shared poll
 * registry (src/cache/live-polls.ts), which refreshes it once per interval for every watcher, and the
 * operation is executed again, from the cache, only when one of its lookups was refreshed.
 */
import { isLiveQueryOperationDefinitionNode, NoLiveMixedWithDeferStreamRule } from '@n1ru4l/graphql-live-query';
import {
  DirectiveLocation,
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLError,
  GraphQLNonNull,
  getOperationAST,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { publicReport } from '../cache/cache-control.js';
import type { LiveKey, LivePolls, LiveWatcher } from '../cache/live-polls.js';
import type { LiveSettings } from '../cache/settings.js';
import { ActionError } from '../kernel/errors.js';
import type { GatewayContext } from './context.js';

export const GraphQLLiveDirective = new GraphQLDirective({
  name: 'live',
  description:
    'Keeps this query current: answered over text/event-stream or multipart/mixed, its first result at once, then a new result whenever a value in it changes. Each lookup is refreshed once per interval of its action (LIVE_REFRESH_SECONDS) for every client watching it.',
  locations: [DirectiveLocation.QUERY],
  args: {
    if: {
      type: new GraphQLNonNull(GraphQLBoolean),
      defaultValue: true,
      description: 'Live when true (the default); false answers once, as a plain query.',
    },
  },
});

/** Told when a live operation opens or ends, and of each result it pushes. */
interface LiveObserver {
  opened(delta: 1 | -1): void;
  pushed(): void;
}

export interface LiveOptions {
  polls: LivePolls;
  settings: Pick<LiveSettings, 'maxOperations' | 'maxPerClient' | 'buffer'>;
  /** Another execution's context for the same operation (src/operation/context.ts contextAgain). */
  again: (ctx: GatewayContext) => GatewayContext;
  logger: Logger;
  /** Whether the upstream is the built-in sandbox, as `extensions.gateway.sandbox` says. */
  sandbox: boolean;
  observe?: LiveObserver;
}

/** The live operations of this process, for the bounds and for shutting down. */
export interface LiveQueries {
  plugin: Plugin<GatewayContext>;
  /** Live operations open now. */
  readonly open: number;
  /** Ends every stream with a final SHUTTING_DOWN result, and refuses new live operations. */
  endAll(): void;
}

const STREAM_MEDIA_TYPES = ['multipart/mixed', 'text/event-stream'];

function acceptsStream(accept: string | null): boolean {
  for (const part of (accept || '').toLowerCase().split(',')) {
    const type = part.split(';')[0]!.trim();
    if (STREAM_MEDIA_TYPES.includes(type) || type === 'multipart/*' || type === 'text/*') return true;
  }
  return false;
}

function refusal(message: string, code: string, status: number, extensions: Record<string, unknown> = {}) {
  return new GraphQLError(message, { extensions: { code, ...extensions, http: { status } } });
}

export function createLiveQueries(options: LiveOptions): LiveQueries {
  const open = new Set<LiveOperation>();
  const perClient = new Map<string, number>();
  let closing = false;
  const { settings } = options;

  const plugin: Plugin<GatewayContext> = {
    onValidate({ addValidationRule }) {
      addValidationRule(NoLiveMixedWithDeferStreamRule);
    },
    onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      const definition = getOperationAST(args.document, args.operationName);
      if (!definition || !isLiveQueryOperationDefinitionNode(definition, args.variableValues ?? undefined)) return;
      const ctx = args.contextValue;
      const request = (ctx as { request?: Request }).request;
      const stop = (error: GraphQLError) => setResultAndStopExecution({ errors: [error] });
      if (!acceptsStream(request?.headers.get('accept') ?? null)) {
        return stop(
          refusal(
            'This query is @live: its results come as a stream. Send "Accept: text/event-stream" or "Accept: multipart/mixed", or remove @live.',
            'LIVE_DELIVERY_NOT_ACCEPTED',
            406,
            { accepted: STREAM_MEDIA_TYPES },
          ),
        );
      }
      if (closing) {
        return stop(
          refusal('This replica is shutting down: open the live query again.', 'SHUTTING_DOWN', 503, {
            retryAfter: 1,
          }),
        );
      }
      const client = ctx.client ?? '';
      if (open.size >= settings.maxOperations) {
        return stop(
          refusal(
            `This gateway keeps at most ${settings.maxOperations} live queries open at once; try again later.`,
            'LIVE_LIMIT_EXCEEDED',
            429,
            { scope: 'process', limit: settings.maxOperations },
          ),
        );
      }
      if ((perClient.get(client) ?? 0) >= settings.maxPerClient) {
        return stop(
          refusal(
            `This client keeps at most ${settings.maxPerClient} live queries open at once: close one first.`,
            'LIVE_LIMIT_EXCEEDED',
            429,
            { scope: 'client', limit: settings.maxPerClient },
          ),
        );
      }
      const live = new LiveOperation(options, args, executeFn as Execute, definition.name?.value ?? null, () => {
        open.delete(live);
        const left = (perClient.get(client) ?? 1) - 1;
        if (left > 0) perClient.set(client, left);
        else perClient.delete(client);
        options.observe?.opened(-1);
      });
      open.add(live);
      perClient.set(client, (perClient.get(client) ?? 0) + 1);
      options.observe?.opened(1);
      setExecuteFn(() => live.start());
    },
  };

  return {
    plugin,
    get open() {
      return open.size;
    },
    endAll() {
      closing = true;
      for (const live of [...open]) {
        live.end(
          'shutdown',
          refusal('This replica is shutting down: open the live query again.', 'SHUTTING_DOWN', 503, {
            retryAfter: 1,
          }),
        );
      }
    },
  };
}

type Execute = (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;
type Payload = ExecutionResult<Record<string, unknown>, Record<string, unknown>>;

const idOf = (live: Pick<LiveKey, 'action' | 'key'>) => `${live.action}\u0000${live.key}`;

/** One live operation: its executions, the lookups it watches, and the results waiting for its reader. */
class LiveOperation implements LiveWatcher {
  private readonly queue: Payload[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  /** The last result pushed (data and errors, serialised), to push only what changed. */
  private last: string | undefined;
  private lastData: Record<string, unknown> | null | undefined;
  private readonly watched = new Map<string, () => void>();
  /** Executions run one at a time; `pending` gathers the changes that came in meanwhile. */
  private running: Promise<unknown> = Promise.resolve();
  private pending: Map<string, LiveKey> | null = null;
  private readonly started = Date.now();
  private pushes = 0;
  private calls = 0;
  private readonly base: GatewayContext;

  constructor(
    private readonly options: LiveOptions,
    private readonly args: ExecutionArgs,
    private readonly execute: Execute,
    private readonly name: string | null,
    private readonly onEnd: () => void,
  ) {
    this.base = args.contextValue as GatewayContext;
  }

  /** The stream Yoga delivers: the first result once it is made, then each change. */
  async start(): Promise<AsyncIterableIterator<Payload>> {
    const signal = this.base.operation.signal;
    if (signal.aborted) this.end('client-closed');
    else signal.addEventListener('abort', () => this.end('client-closed'), { once: true });
    await this.run([], [], this.base);
    const iterator: AsyncIterableIterator<Payload> = {
      [Symbol.asyncIterator]: () => iterator,
      next: () => this.next(),
      return: () => {
        this.end('client-closed');
        return Promise.resolve({ done: true, value: undefined });
      },
    };
    return iterator;
  }

  async refresh(keys: LiveKey[]): Promise<LiveKey[]> {
    if (this.ended) return keys;
    return this.enqueueRun(() => this.run(keys, keys));
  }

  changed(keys: LiveKey[]): void {
    if (this.ended) return;
    if (this.pending) {
      for (const key of keys) this.pending.set(idOf(key), key);
      return;
    }
    this.pending = new Map(keys.map((key) => [idOf(key), key]));
    void this.enqueueRun(() => {
      const changed = [...(this.pending?.values() ?? [])];
      this.pending = null;
      return this.run([], changed);
    });
  }

  /** Ends the stream: its lookups released at once, `final` (if any) its last result. */
  end(reason: string, final?: GraphQLError): void {
    if (this.ended) return;
    this.ended = true;
    for (const release of this.watched.values()) release();
    this.watched.clear();
    if (final) {
      // A reader too slow loses what waited for it; otherwise the final result comes after the others.
      if (reason === 'slow-reader') this.queue.length = 0;
      this.queue.push({ ...(this.lastData === undefined ? {} : { data: this.lastData }), errors: [final] });
    }
    this.wake?.();
    this.onEnd();
    this.options.logger.info(
      {
        live: {
          operation: this.name,
          durationMs: Date.now() - this.started,
          pushes: this.pushes,
          upstreamCalls: this.calls,
          end: reason,
        },
      },
      'live operation ended',
    );
  }

  private enqueueRun<T>(run: () => Promise<T>): Promise<T> {
    const next = this.running.then(run, run);
    this.running = next.catch(() => undefined);
    return next;
  }

  private async next(): Promise<IteratorResult<Payload>> {
    while (this.queue.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    const value = this.queue.shift();
    return value === undefined ? { done: true, value: undefined } : { done: false, value };
  }

  /**
   * One execution: `fresh` lookups go upstream (a poll's call, paid by this operation's client), the rest
   * come from the cache. Returns the fresh lookups it could not pay for.
   */
  private async run(fresh: LiveKey[], changed: LiveKey[], given?: GatewayContext): Promise<LiveKey[]> {
    if (this.ended) return fresh;
    const ctx = given ?? this.options.again(this.base);
    for (const key of fresh) ctx.operation.fresh.force(key.action, key.key);
    const result = (await this.execute({ ...this.args, contextValue: ctx })) as Payload;
    this.calls += ctx.operation.upstreamCalls;
    if (this.ended) return [];
    const lookups = ctx.operation.lookups;
    const unpaid = fresh.filter((key) =>
      lookups.some((report) => idOf(report) === idOf(key) && report.reason === 'QUOTA_EXCEEDED'),
    );
    this.rewatch(
      lookups.map((report) => ({ action: report.action, fingerprint: ctx.tokenFingerprint, key: report.key })),
    );
    const quota = result.errors?.filter((error) => codeOf(error) === 'QUOTA_EXCEEDED') ?? [];
    // Out of quota: the error, with the data last pushed kept as it was.
    const payload: Payload =
      quota.length > 0 && this.lastData !== undefined ? { data: this.lastData, errors: quota } : result;
    const seen = JSON.stringify([payload.data, payload.errors?.map((error) => [error.message, error.path])]);
    if (seen === this.last) return unpaid;
    this.last = seen;
    if (payload === result) this.lastData = result.data;
    this.push({
      ...payload,
      extensions: {
        ...payload.extensions,
        gateway: {
          sandbox: this.options.sandbox,
          upstreamCalls: ctx.operation.upstreamCalls,
          cost: ctx.operation.cost,
          lookups: lookups.map(publicReport),
          live: {
            changed: changed.map(({ action, key }) => ({ action, key })),
            next: uniqueLookups(lookups).map(({ action, key }) => ({
              action,
              key,
              refreshAt: new Date(this.options.polls.nextRefresh(action)).toISOString(),
            })),
          },
        },
      },
    });
    return unpaid;
  }

  /** Watches the lookups this execution made, and releases those it no longer makes. */
  private rewatch(keys: LiveKey[]): void {
    const now = new Map(keys.map((key) => [idOf(key), key]));
    for (const [id, release] of this.watched) {
      if (now.has(id)) continue;
      release();
      this.watched.delete(id);
    }
    for (const [id, key] of now) {
      if (!this.watched.has(id)) this.watched.set(id, this.options.polls.watch(this, [key]));
    }
  }

  private push(payload: Payload): void {
    if (this.ended) return;
    if (this.queue.length >= this.options.settings.buffer) {
      this.end(
        'slow-reader',
        refusal(
          `The client did not read this live query's results: ${this.options.settings.buffer} were waiting. Open it again.`,
          'LIVE_READER_TOO_SLOW',
          503,
          { buffer: this.options.settings.buffer },
        ),
      );
      return;
    }
    this.pushes += 1;
    this.options.observe?.pushed();
    this.queue.push(payload);
    this.wake?.();
  }
}

function codeOf(error: GraphQLError): unknown {
  return error.originalError instanceof ActionError ? error.originalError.code : error.extensions?.code;
}

function uniqueLookups<T extends { action: string; key: string }>(lookups: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const lookup of lookups) if (!seen.has(idOf(lookup))) seen.set(idOf(lookup), lookup);
  return [...seen.values()];
}
