import { GraphQLObjectType, GraphQLSchema, GraphQLString, specifiedDirectives } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { maskError } from '../../src/kernel/graphql-errors.js';
import {
  GraphQLDeferDirective,
  GraphQLStreamDirective,
  useIncrementalDelivery,
  usesIncrementalDelivery,
} from '../../src/incremental/index.js';
import { ActionError } from '../../src/kernel/errors.js';
import { parse } from 'graphql';

/** A schema with a field that fails unexpectedly and one that fails with a coded error. */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      fast: { type: GraphQLString, resolve: () => 'ok' },
      broken: {
        type: GraphQLString,
        resolve: () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:5432 (internal detail)');
        },
      },
      coded: {
        type: GraphQLString,
        resolve: () => {
          throw new ActionError('NOT_FOUND', 'Nothing here', { action: 'domain_info' });
        },
      },
    },
  }),
  directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective],
});

describe('errors in deferred payloads are masked like any other', () => {
  const yoga = createYoga({
    schema,
    logging: false,
    maskedErrors: { maskError, isDev: false },
    plugins: [...useIncrementalDelivery(maskError)],
  });

  it('an unexpected error is INTERNAL_SERVER_ERROR without its message; a coded one keeps its code and path', async () => {
    const res = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: '{ fast ... @defer(label: "a") { broken } ... @defer(label: "b") { coded } }' }),
    });
    const text = await res.text();
    expect(text).not.toContain('ECONNREFUSED');
    const parts = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .flatMap((line) => JSON.parse(line.slice(6)).incremental ?? []);
    const a = parts.find((part: { label: string }) => part.label === 'a');
    const b = parts.find((part: { label: string }) => part.label === 'b');
    expect(a.errors).toEqual([
      expect.objectContaining({
        message: 'Unexpected error.',
        path: ['broken'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      }),
    ]);
    expect(b.errors).toEqual([
      expect.objectContaining({
        message: 'Nothing here',
        path: ['coded'],
        extensions: expect.objectContaining({ code: 'NOT_FOUND', action: 'domain_info' }),
      }),
    ]);
  });

  it('routes by document: only documents naming @defer or @stream (anywhere, fragments included) are incremental', () => {
    expect(usesIncrementalDelivery(parse('{ fast }'))).toBe(false);
    expect(usesIncrementalDelivery(parse('{ fast @include(if: true) }'))).toBe(false);
    expect(usesIncrementalDelivery(parse('{ ...F } fragment F on Query { ... @defer { fast } }'))).toBe(true);
    expect(usesIncrementalDelivery(parse('{ list @stream { id } }'))).toBe(true);
  });
});
