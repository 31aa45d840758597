/**
 * Incremental delivery (@defer, @stream): which operations take the incremental executor, and the
 * directives the schema declares so that clients and codegen validate against them.
 */
import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLError,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLString,
  type DocumentNode,
} from 'graphql';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import type { Plugin } from 'graphql-yoga';
import { usesDirective } from '../kernel/document-directives.js';

// The same names, places and arguments (with their defaults) as the directives the executor reads
// (@graphql-tools/utils, which @graphql-yoga/plugin-defer-stream also declares when a schema lacks
// them), described for this gateway.
export const GraphQLDeferDirective = new GraphQLDirective({
  name: 'defer',
  description:
    'Delivers this fragment in a later payload (multipart/mixed or text/event-stream), so a slow lookup inside it does not hold the rest of the response. Lookups shared with the rest of the operation are still made once.',
  locations: [DirectiveLocation.FRAGMENT_SPREAD, DirectiveLocation.INLINE_FRAGMENT],
  args: {
    if: {
      type: new GraphQLNonNull(GraphQLBoolean),
      defaultValue: true,
      description: 'Deferred when true (the default); false delivers the fragment with its parent.',
    },
    label: {
      type: GraphQLString,
      description: 'A name, unique in the operation, that the payload delivering this fragment carries.',
    },
  },
});

export const GraphQLStreamDirective = new GraphQLDirective({
  name: 'stream',
  description:
    'Delivers the items of this list field one payload at a time as their lookups finish, after the first `initialCount` items.',
  locations: [DirectiveLocation.FIELD],
  args: {
    if: {
      type: new GraphQLNonNull(GraphQLBoolean),
      defaultValue: true,
      description: 'Streamed when true (the default); false delivers the list whole.',
    },
    label: {
      type: GraphQLString,
      description: 'A name, unique in the operation, that the payloads of this list carry.',
    },
    initialCount: {
      type: GraphQLInt,
      defaultValue: 0,
      description: 'How many items come in the payload of the list itself, before streaming starts.',
    },
  },
});

/** The directive names that make an operation incremental. */
const INCREMENTAL = new Set([GraphQLDeferDirective.name, GraphQLStreamDirective.name]);

// Yoga hands the same DocumentNode to every request with the same text: each document is scanned once.
const scanned = new WeakMap<DocumentNode, boolean>();

/**
 * Whether a document uses @defer or @stream anywhere (operations and fragments alike). Those
 * operations run on the executor that delivers incrementally; every other one keeps the
 * graphql-jit fast path. `if: false` still counts: the incremental executor then answers in one
 * payload, exactly as the directive says.
 */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = scanned.get(document);
  if (found === undefined) {
    found = usesDirective(document, INCREMENTAL);
    scanned.set(document, found);
  }
  return found;
}

/** The media types Yoga delivers incremental results in (its multipart and SSE result processors). */
const INCREMENTAL_MEDIA_TYPES = ['multipart/mixed', 'text/event-stream'];

/** Whether the Accept header (absent means any) admits multipart/mixed or text/event-stream. */
function acceptsIncremental(accept: string | null): boolean {
  for (const part of (accept || '*/*').toLowerCase().split(',')) {
    const [type = '', subtype = ''] = part.split(';')[0]!.trim().split('/');
    for (const wanted of INCREMENTAL_MEDIA_TYPES) {
      const [wantedType, wantedSubtype] = wanted.split('/');
      if ((type === '*' || type === wantedType) && (subtype === '*' || subtype === wantedSubtype)) return true;
    }
  }
  return false;
}

/**
 * @defer and @stream: the validation rules of Yoga's defer-stream plugin, the executor's
 * cancellation when the client goes away, and a clear refusal, before anything is looked up, of an
 * incremental operation whose client accepts neither incremental transport (Yoga would otherwise
 * execute it, pay for its lookups, and answer an empty 406).
 */
export function useIncrementalDelivery(maskError: (error: unknown, message: string) => Error) {
  return [
    useDeferStream(),
    useIncrementalCancellation(),
    useIncrementalAcceptCheck(),
    useIncrementalErrorMasking(maskError),
  ];
}

/**
 * Hands Yoga's incremental executor the operation's one signal (src/operation/operation.ts), as Yoga's
 * useExecutionCancellation would hand it the request's, so deferred work stops when the client goes.
 * Only incremental operations: Envelop spreads `args` before it calls the executor, so even a lazy
 * getter would make the signal, an AbortController, for every cached operation; graphql-jit takes no
 * signal and its lookups follow the same one through the context.
 */
function useIncrementalCancellation(): Plugin<{ operation?: { signal: AbortSignal } }> {
  return {
    onExecute({ args }) {
      const operation = args.contextValue.operation; // absent on a bare Yoga (the masking test)
      if (!operation || !usesIncrementalDelivery(args.document)) return;
      (args as { signal?: AbortSignal }).signal = operation.signal;
    },
  };
}

/** What an error that is neither coded nor GraphQL's own says instead of its message (Yoga's default). */
const MASKED_MESSAGE = 'Unexpected error.';

/**
 * Yoga masks the errors of a payload's top-level `errors` only; the errors of deferred fragments and
 * streamed items travel in `incremental[].errors`. They go through the same maskError, so they carry
 * their code (and `path`) and never an internal message.
 */
function useIncrementalErrorMasking(maskError: (error: unknown, message: string) => Error): Plugin {
  return {
    onExecute({ args }) {
      if (!usesIncrementalDelivery(args.document)) return undefined; // the graphql-jit path pays nothing here
      return {
        onExecuteDone() {
          return {
            onNext({ result, setResult }) {
              if (!('incremental' in result) || !result.incremental?.some((part) => part.errors?.length)) return;
              const incremental = result.incremental.map((part) =>
                part.errors?.length
                  ? { ...part, errors: part.errors.map((error) => maskError(error, MASKED_MESSAGE) as GraphQLError) }
                  : part,
              );
              setResult({ ...result, incremental } as typeof result);
            },
          };
        },
      };
    },
  };
}

function useIncrementalAcceptCheck(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (!usesIncrementalDelivery(args.document)) return;
      const request = (args.contextValue as { request?: Request }).request;
      if (acceptsIncremental(request?.headers.get('accept') ?? null)) return;
      setResultAndStopExecution({
        errors: [
          new GraphQLError(
            'This operation uses @defer or @stream, whose results come in several payloads: send "Accept: multipart/mixed" or "Accept: text/event-stream", or remove the directives.',
            {
              extensions: {
                code: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED',
                accepted: INCREMENTAL_MEDIA_TYPES,
                http: { status: 406 },
              },
            },
          ),
        ],
      });
    },
  };
}
