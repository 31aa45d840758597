import type { Plugin } from 'graphql-yoga';
import { publicReport } from '../cache/cache-control.js';
import type { AnsweredOperations } from '../cache/answered.js';
import type { GatewayContext } from '../operation/context.js';
import type { Operation } from '../operation/operation.js';

/** `extensions.gateway` of one operation's response. */
function gatewayReport(sandbox: boolean, operation: Pick<Operation, 'upstreamCalls' | 'cost' | 'lookups'> | null) {
  return {
    sandbox,
    upstreamCalls: operation?.upstreamCalls ?? 0,
    // The operation's estimated cost in upstream calls and the budget it was held to (src/cost).
    cost: operation?.cost ?? null,
    // Per lookup: where its value came from (cache, upstream, or another request's call) and its age in seconds.
    lookups: (operation?.lookups ?? []).map(publicReport),
  };
}

type Usage = Pick<Operation, 'upstreamCalls' | 'cost' | 'lookups'>;

/**
 * Reports on every response whether the upstream is the sandbox and how many upstream calls it made:
 * an executed operation's when it is done, a remembered result's from what answered it.
 */
export function useGatewayExtensions(sandbox: boolean, answered: AnsweredOperations): Plugin<GatewayContext> {
  const report = (operation: Usage | null) => gatewayReport(sandbox, operation);
  const stamp = (result: { extensions?: Record<string, unknown> }, operation: Usage | null) => ({
    ...result,
    extensions: { ...result.extensions, gateway: report(operation) },
  });
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      return {
        onExecuteDone({ result, setResult }) {
          if (!(Symbol.asyncIterator in result)) {
            setResult(stamp(result, context.operation));
            return undefined;
          }
          // Incremental delivery: the usage is final once nothing is left to send, so the last
          // payload (hasNext: false) carries it; the earlier ones carry none.
          return {
            onNext({ result: payload, setResult: setPayload }) {
              if ('hasNext' in payload && payload.hasNext === false) setPayload(stamp(payload, context.operation));
            },
          };
        },
      };
    },
    onResultProcess({ request, result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result) return;
      if (!result.extensions?.gateway) setResult(stamp(result, answered.of(request)[0]?.usage ?? null));
    },
  };
}
