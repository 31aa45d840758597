import { overBudget } from '../cost/meter.js';
import { ActionError } from '../kernel/errors.js';
import type { LookupTrace } from '../kernel/lookup-trace.js';
import type { ActionEnvelope } from '../upstream/client.js';
import type { GatewayContext } from './context.js';

/**
 * Calls an action for the context's operation: within its budget (COST_BUDGET), paid from the client's
 * quota at the moment it is sent, cancelled with the request (or with `signal` when given: a coalesced
 * call is cancelled only when every request waiting for it has gone), with the request's token. `trace`:
 * the lookup's, from which the call's span is made.
 */
export function callAction(
  ctx: GatewayContext,
  action: string,
  body: Record<string, unknown>,
  signal?: AbortSignal,
  trace?: LookupTrace,
): Promise<ActionEnvelope> {
  const operation = ctx.operation;
  // The runtime cost limit: a call past COST_BUDGET fails with COST_LIMIT_EXCEEDED instead of going out.
  const overLimit = overBudget(operation.callsAsked, ctx.costBudget, action);
  if (overLimit) return Promise.reject(overLimit.with({ refused: true }));
  operation.callsAsked += 1;
  let sent = false;
  const call = () =>
    ctx
      .upstream(action, body, {
        signal: signal ?? operation.signal,
        operationDeadline: operation.deadline,
        ...(ctx.client ? { client: ctx.client } : {}),
        ...(ctx.upstreamToken ? { token: ctx.upstreamToken } : {}),
        trace,
        onSent: () => {
          sent = true;
          operation.callSent();
        },
      })
      .catch((error: unknown) => {
        // Nothing left the gateway for this lookup, and not for want of a connection: the gateway refused it, and says so.
        throw !sent && error instanceof ActionError && !error.neverSent ? error.with({ refused: true }) : error;
      });
  const payer = ctx.payer;
  if (!payer) return call();
  // The quota is checked at the moment of paying: QUOTA_EXCEEDED here fails this lookup alone, before anything
  // is sent. A call that never left the gateway is given back.
  return payer.reserve(action).then(
    async (settle) => {
      try {
        const envelope = await call();
        settle(true);
        return envelope;
      } catch (error) {
        settle(sent);
        throw error;
      }
    },
    (refusal: unknown) => {
      operation.callsAsked -= 1;
      throw refusal instanceof ActionError ? refusal.with({ refused: true }) : refusal;
    },
  );
}
