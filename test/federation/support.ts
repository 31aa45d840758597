import { actionNamed } from '../../src/actions/all.js';
import { json, type FaultUpstream, type RecordedCall } from '../support/fault-upstream.js';

/**
 * Answers every call as the built-in sandbox would (each descriptor's sample answer), except the calls
 * `fail` picks: those get an HTTP 500 (UPSTREAM_UNAVAILABLE, not retried).
 */
export function answerLikeSandbox(up: FaultUpstream, fail: (call: RecordedCall) => boolean = () => false): void {
  up.handle((call, _req, res) => {
    const descriptor = actionNamed(call.action);
    if (!descriptor) return json(res, 404, { status: 404, response: null, error: "The requested page doesn't exist." });
    if (fail(call)) return json(res, 500, { status: 500, response: null, error: 'Internal error' });
    json(res, 200, { status: 200, ...descriptor.sandbox.respond(call.body) });
  });
}

/** The calls of one action, by what they asked (the body field that holds the key). */
export function asked(up: FaultUpstream, action: string, field: string): string[] {
  return up.calls.filter((call) => call.action === action).map((call) => String(call.body[field]));
}

export const ENTITIES_QUERY = (selection: string) =>
  `query Entities($representations: [_Any!]!) { _entities(representations: $representations) { __typename ${selection} } }`;
