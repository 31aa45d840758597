import type { FaultUpstream } from '../support/fault-upstream.js';

export { answerLikeSandbox } from '../support/fault-upstream.js';

/** The calls of one action, by what they asked (the body field that holds the key). */
export function asked(up: FaultUpstream, action: string, field: string): string[] {
  return up.calls.filter((call) => call.action === action).map((call) => String(call.body[field]));
}

export const ENTITIES_QUERY = (selection: string) =>
  `query Entities($representations: [_Any!]!) { _entities(representations: $representations) { __typename ${selection} } }`;
