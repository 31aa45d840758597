import DataLoader from 'dataloader';
import type { GatewayContext } from '../../context.js';
import { ActionError, badInput } from '../../upstream/errors.js';
import { loaderFor, responseArray } from '../loader.js';
import { obj, str, type Raw } from '../../schema/read.js';

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
 * One loader per operation for every symbol asked anywhere in it: the symbols go upstream in one
 * call written "A, B, C" (split only above FINANCIAL_BATCH_SIZE) and map back by symbol.
 */
export function loadFinancialProfile(ctx: GatewayContext, symbol: string): Promise<Raw> {
  const loader = loaderFor(ctx, COMPANY_FINANCIAL_PROFILE, () =>
    new DataLoader<string, Raw>((symbols) => fetchSymbols(ctx, symbols), { maxBatchSize: ctx.config.financialBatchSize }),
  );
  return loader.load(symbol);
}

async function fetchSymbols(ctx: GatewayContext, symbols: readonly string[]): Promise<Array<Raw | Error>> {
  let profiles: unknown[];
  try {
    profiles = responseArray(await ctx.callAction(COMPANY_FINANCIAL_PROFILE, { company: symbols.join(', ') }), COMPANY_FINANCIAL_PROFILE);
  } catch (error) {
    return symbols.map(() => error as Error);
  }
  const bySymbol = new Map<string, Raw>();
  for (const item of profiles) {
    const profile = obj(item);
    const symbol = str(profile?.symbol)?.trim().toUpperCase();
    if (profile && symbol) bySymbol.set(symbol, profile);
  }
  return symbols.map(
    (symbol) =>
      bySymbol.get(symbol) ??
      new ActionError('NOT_FOUND', `No financial profile for symbol ${symbol}`, {
        action: COMPANY_FINANCIAL_PROFILE,
        extensions: { symbol },
      }),
  );
}
