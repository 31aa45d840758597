import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CostReport } from '../cost/meter.js';
import type { Quotas } from './index.js';
import { quotaFields } from './payer.js';
import { type QuotaState, rateLimitHeaders } from './window.js';

type Extensions = { extensions?: Record<string, unknown> };

/**
 * What a client with a quota sees of it, on every answer: `RateLimit-Policy` and `RateLimit`
 * headers (draft-ietf-httpapi-ratelimit-headers-10) and `extensions.gateway.quota`. And an operation
 * whose cost estimate is more than the client's whole quota is refused with QUOTA_EXCEEDED (HTTP 400:
 * no wait makes it fit) before any call. Installed after the cost estimate (src/cost/plugin.ts) and
 * after `extensions.gateway` is stamped.
 */
export function useQuota(quotas: Quotas): Plugin<{ operation: { cost: CostReport | null } }> {
  const states = new WeakMap<Request, QuotaState>();
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const request = (args.contextValue as { request?: Request }).request;
      const payer = request ? quotas.payerOf(request) : null;
      const cost = args.contextValue.operation.cost;
      if (!payer || !cost || cost.estimated <= payer.spec.limit) return;
      const state = await payer.state();
      setResultAndStopExecution({
        errors: [
          new GraphQLError(
            `This operation could make up to ${cost.estimated} upstream calls, more than this client's whole quota of ${payer.spec.limit} a ${payer.spec.window}.`,
            {
              extensions: {
                code: 'QUOTA_EXCEEDED',
                cost: cost.estimated,
                ...quotaFields(state),
                http: { status: 400 },
              },
            },
          ),
        ],
      });
    },
    async onResultProcess({ request, result, setResult }) {
      const payer = quotas.payerOf(request);
      if (!payer) return;
      const state = await payer.state();
      states.set(request, state);
      const quota = quotaFields(state);
      const stamp = <T extends Extensions>(single: T): T => {
        const gateway = single.extensions?.gateway as Record<string, unknown> | undefined;
        return { ...single, extensions: { ...single.extensions, gateway: { ...gateway, quota } } };
      };
      if (Array.isArray(result))
        setResult(result.map((single) => (Symbol.asyncIterator in single ? single : stamp(single))));
      else if (!(Symbol.asyncIterator in result)) setResult(stamp(result));
    },
    onResponse({ request, response }) {
      const state = states.get(request);
      if (!state) return;
      for (const [name, value] of Object.entries(rateLimitHeaders(state))) response.headers.set(name, value);
    },
  };
}
