import { expect } from 'vitest';
import { restPayloadBytes, type GraphQLResponse, type TestGateway } from './gateway.js';
import { it } from './fixtures.js';

/** Calls the built-in sandbox of `gw` has answered so far: of one action, or of all together. */
export function sandboxCalls(gw: TestGateway, action?: string): number {
  const calls = gw.gateway.sandbox!.calls;
  return action === undefined ? [...calls.values()].reduce((sum, n) => sum + n, 0) : (calls.get(action) ?? 0);
}

/** Runs `query` and checks it was answered 200 without errors; returns the response for further checks. */
export async function answered(
  gw: TestGateway,
  query: string,
  variables?: Record<string, unknown>,
): Promise<GraphQLResponse> {
  const response = await gw.query(query, variables);
  expect(response.status).toBe(200);
  expect(response.body.errors).toBeUndefined();
  return response;
}

/** Runs `query` on a gateway over the sandbox and checks its data (no errors) and that it cost `calls` calls of `action`. */
export async function answersWithCalls(
  gw: TestGateway,
  action: string,
  query: string,
  data: unknown,
  calls = 1,
): Promise<GraphQLResponse> {
  const before = sandboxCalls(gw, action);
  const response = await gw.query(query);
  expect(response.body.errors).toBeUndefined();
  expect(response.body.data).toEqual(data);
  expect(sandboxCalls(gw, action) - before).toBe(calls);
  return response;
}

export interface Rejection {
  /** The root field the operation asks for; it must come back null. */
  field: string;
  /** The argument the error names (extensions.argument). */
  argument: string;
  /** Text the error message must contain. */
  message?: string;
}

/**
 * Runs `query` against a gateway over the sandbox and checks that it is refused with BAD_USER_INPUT
 * naming `argument`, the field null, and that nothing went upstream (the sandbox counted no call, and
 * extensions.gateway.upstreamCalls is 0). Returns the response for further checks.
 */
export async function rejectsBeforeUpstream(
  gw: TestGateway,
  query: string,
  variables: Record<string, unknown> | undefined,
  expected: Rejection,
): Promise<GraphQLResponse> {
  const before = sandboxCalls(gw);
  const response = await gw.query(query, variables);
  const { status, body } = response;
  expect(status).toBe(200);
  expect(body.data).toEqual({ [expected.field]: null });
  expect(body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: expected.argument });
  if (expected.message) expect(body.errors![0]!.message).toContain(expected.message);
  expect(sandboxCalls(gw)).toBe(before);
  expect(body.extensions?.gateway.upstreamCalls).toBe(0);
  return response;
}

export interface SizeComparison {
  /** The action and body whose raw REST payload the sandbox sends. */
  action: string;
  body: Record<string, unknown>;
  /** The GraphQL query asking a few fields of the same lookup. */
  query: string;
  /** The GraphQL response must be at least this many times smaller than the REST payload. */
  factor: number;
  /** And, when given, smaller than this many bytes (extensions.gateway included). */
  maxBytes?: number;
}

/** Checks that a few-field GraphQL answer is a small fraction of the REST payload of the same lookup, and logs both sizes. */
export async function smallerThanRest(gw: TestGateway, expected: SizeComparison): Promise<void> {
  const restBytes = await restPayloadBytes(gw, expected.action, expected.body);
  const { body, text } = await gw.query(expected.query);
  expect(body.errors).toBeUndefined();
  const graphqlBytes = Buffer.byteLength(text);
  console.log(
    `${expected.action}, a few fields: GraphQL response ${graphqlBytes} bytes vs REST payload ${restBytes} bytes (${(restBytes / graphqlBytes).toFixed(1)}x smaller)`,
  );
  if (expected.maxBytes !== undefined) expect(graphqlBytes).toBeLessThan(expected.maxBytes);
  expect(graphqlBytes * expected.factor).toBeLessThan(restBytes);
}

/**
 * One test per case: `field(argument: value) { selection }` is refused before any upstream call
 * (see rejectsBeforeUpstream), with an error message containing the case's text when it has one.
 */
export function itRejectsBeforeUpstream(
  field: string,
  argument: string,
  selection: string,
  cases: Array<[value: string, message?: string]>,
): void {
  it.for(cases)(`rejects ${argument} %j before any upstream call`, async ([value, message], { sandbox: gw }) => {
    await rejectsBeforeUpstream(
      gw,
      `query($value: String!) { ${field}(${argument}: $value) { ${selection} } }`,
      { value },
      { field, argument, message },
    );
  });
}
