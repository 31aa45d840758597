import DataLoader from 'dataloader';
import type { GatewayContext } from '../../context.js';
import { scheduleSymbolBatch, trackCall } from '../../cost/meter.js';
import { ActionError, badInput } from '../../upstream/errors.js';
import { loaderFor, responseArray } from '../loader.js';
import { obj, str, type Raw } from '../../schema/read.js';
import { traceLookups } from '../../telemetry/spans.js';

export const COMPANY_FINANCIAL_PROFILE = 'company_financial_profile';

const SYMBOL = /^[A-Z0-9][A-Z0-9.\-^=]{0,14}$/;

/** Upper-cases and checks one stock symbol. */
export function canonicalSymbol(argument: string, value: string): string {
  const symbol = value.trim().toUpperCase();
  if (!SYMBOL.test(symbol)) {
    throw badInput(`"${argument}" must hold stock symbols such as AAPL or BRK.B, got "${value.trim().slice(0, 20)}"`, { argument });
  }
  return symbol;
}

/**
 * One loader per operation for every symbol asked anywhere in it. Symbols are cached one by one, so
 * a later request for a subset costs nothing; the rest go upstream in one call written "A, B, C"
 * (split only above FINANCIAL_BATCH_SIZE) and map back by symbol.
 */
export function loadFinancialProfile(ctx: GatewayContext, symbol: string): Promise<Raw> {
  const loader = loaderFor(ctx, COMPANY_FINANCIAL_PROFILE, () =>
    new DataLoader<string, Raw>((symbols) => fetchSymbols(ctx, symbols), {
      maxBatchSize: ctx.config.financialBatchSize,
      // With Company.financialProfile links in the operation, wait until no lookup can add symbols.
      batchScheduleFn: (dispatch) => scheduleSymbolBatch(ctx.usage, dispatch),
    }),
  );
  return loader.load(symbol);
}

async function fetchSymbols(ctx: GatewayContext, symbols: readonly string[]): Promise<Array<Raw | Error>> {
  const outcomes = await trackCall(
    ctx.usage,
    COMPANY_FINANCIAL_PROFILE,
    traceLookups(ctx.usage, COMPANY_FINANCIAL_PROFILE, symbols, () =>
      ctx.cache.fetchMany<Raw>(COMPANY_FINANCIAL_PROFILE, ctx.tokenFingerprint, [...symbols], (missing, signal) => callUpstream(ctx, missing, signal), ctx)),
  );
  return outcomes.map((outcome) => {
    ctx.usage.lookups.push({ action: COMPANY_FINANCIAL_PROFILE, key: outcome.key, source: outcome.source });
    return outcome.error ?? outcome.value!;
  });
}

async function callUpstream(ctx: GatewayContext, symbols: string[], signal?: AbortSignal): Promise<Map<string, Raw | Error>> {
  const envelope = await ctx.callAction(COMPANY_FINANCIAL_PROFILE, { company: symbols.join(', ') }, signal);
  const bySymbol = new Map<string, Raw | Error>();
  for (const item of responseArray(envelope, COMPANY_FINANCIAL_PROFILE)) {
    const profile = obj(item);
    const symbol = str(profile?.symbol)?.trim().toUpperCase();
    if (profile && symbol) bySymbol.set(symbol, profile);
  }
  for (const symbol of symbols) {
    if (!bySymbol.has(symbol)) {
      bySymbol.set(symbol, new ActionError('NOT_FOUND', `No financial profile for symbol ${symbol}`, { action: COMPANY_FINANCIAL_PROFILE, extensions: { symbol } }));
    }
  }
  return bySymbol;
}
