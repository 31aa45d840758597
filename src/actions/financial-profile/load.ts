import DataLoader from 'dataloader';
import { callAction } from '../../operation/call-action.js';
import type { GatewayContext } from '../../operation/context.js';
import type { ActionEnvelope } from '../../upstream/client.js';
import { ActionError, badInput } from '../../kernel/errors.js';
import type { LookupTrace } from '../../kernel/lookup-trace.js';
import type { ActionDescriptor } from '../descriptor.js';
import { lookupReport } from '../../cache/lookup-report.js';
import { loaderFor, responseArray } from '../loader.js';
import { obj, str, type Raw } from '../../schema/read.js';

export const COMPANY_FINANCIAL_PROFILE = 'company_financial_profile';

const SYMBOL = /^\^?[A-Z0-9][A-Z0-9.\-=]{0,14}$/;
/** A share class written with a dot, slash or space ("BRK.B", "BRK/B", "BRK B"): one to three class letters that are not an exchange suffix. */
const SHARE_CLASS = /^([A-Z]{1,5})[./ ]([A-C]|K)$/;

/** Control characters, shown as "?" in error messages. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: they are kept out of the message
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * The canonical form of one stock symbol, as the financial upstream writes symbols: upper-case, a
 * leading "$" (cashtag) dropped, an index keeps its "^" ("^GSPC"), a share class is written with a
 * dash ("BRK.B", "BRK/B", "brk-b" -> "BRK-B"); exchange suffixes stay ("VOD.L", "SAP.DE").
 */
export function canonicalSymbol(argument: string, value: string): string {
  const trimmed = value.trim().toUpperCase().replace(/^\$/, '').replace(/\s+/g, ' ');
  const symbol = trimmed.replace(SHARE_CLASS, '$1-$2');
  if (!SYMBOL.test(symbol)) {
    throw badInput(
      `"${argument}" must hold stock symbols such as AAPL, BRK-B or ^GSPC, got "${value.trim().slice(0, 20).replace(CONTROL_CHARACTERS, '?')}"`,
      {
        argument,
      },
    );
  }
  return symbol;
}

/** The most stock symbols in one financial call (the upstream's own bound); larger sets are split into several calls. */
export const FINANCIAL_BATCH_SIZE = 50;

/**
 * One loader per operation for every symbol asked anywhere in it. Symbols are cached one by one, so
 * a later request for a subset costs nothing; the rest go upstream in one call written "A, B, C"
 * (split only above FINANCIAL_BATCH_SIZE) and map back by symbol.
 */
export function loadFinancialProfile(ctx: GatewayContext, symbol: string): Promise<Raw> {
  const loader = loaderFor(
    ctx,
    COMPANY_FINANCIAL_PROFILE,
    () =>
      new DataLoader<string, Raw>((symbols) => fetchSymbols(ctx, symbols), {
        maxBatchSize: ctx.financialBatchSize,
        // With Company.financialProfile links in the operation, wait until no lookup can add symbols.
        batchScheduleFn: (dispatch) => ctx.operation.symbols.schedule(dispatch),
      }),
  );
  if (ctx.operation.fresh.request(COMPANY_FINANCIAL_PROFILE, symbol)) loader.clear(symbol); // @fresh after a cached read
  return loader.load(symbol);
}

async function fetchSymbols(ctx: GatewayContext, symbols: readonly string[]): Promise<Array<Raw | Error>> {
  const operation = ctx.operation;
  const fresh = new Set(symbols.filter((symbol) => operation.fresh.dispatch(COMPANY_FINANCIAL_PROFILE, symbol)));
  const trace = operation.trace?.lookup(COMPANY_FINANCIAL_PROFILE, symbols);
  const outcomes = await operation.symbols.track(
    financialProfileAction.namesSymbols,
    ctx.cache.fetchMany<Raw>(
      COMPANY_FINANCIAL_PROFILE,
      ctx.tokenFingerprint,
      [...symbols],
      (missing, signal) => callUpstream(ctx, missing, signal, trace),
      operation,
      { fresh, trace },
    ),
  );
  return outcomes.map((outcome) => {
    operation.lookups.push(lookupReport(ctx.cache, COMPANY_FINANCIAL_PROFILE, outcome.key, outcome));
    return outcome.error ?? outcome.value!;
  });
}

/** Upstream profiles by their canonical symbol; symbols the upstream left out are NOT_FOUND. */
function profilesBySymbol(envelope: ActionEnvelope, symbols: readonly string[]): Map<string, Raw | Error> {
  const bySymbol = new Map<string, Raw | Error>();
  for (const item of responseArray(envelope, COMPANY_FINANCIAL_PROFILE)) {
    const profile = obj(item);
    const symbol = str(profile?.symbol)?.trim().toUpperCase();
    if (profile && symbol) bySymbol.set(symbol, profile);
  }
  for (const symbol of symbols) {
    if (!bySymbol.has(symbol)) {
      bySymbol.set(
        symbol,
        new ActionError('NOT_FOUND', `No financial profile for symbol ${symbol}`, {
          action: COMPANY_FINANCIAL_PROFILE,
          extensions: { symbol },
        }),
      );
    }
  }
  return bySymbol;
}

/** `signal` is the shared call's: cancelled only when every request coalesced onto it has gone. `trace`: the lookup's. */
async function callUpstream(
  ctx: GatewayContext,
  symbols: string[],
  signal: AbortSignal | undefined,
  trace: LookupTrace | undefined,
): Promise<Map<string, Raw | Error>> {
  const envelope = await callAction(
    ctx,
    COMPANY_FINANCIAL_PROFILE,
    financialProfileAction.body(symbols.join(', ')),
    signal,
    trace,
  );
  return profilesBySymbol(envelope, symbols);
}

/**
 * Financial profiles by stock symbol. The key is one canonical symbol (canonicalSymbol); symbols
 * go upstream batched, many per call written "A, B, C", so the cost model counts batches.
 */
export const financialProfileAction: ActionDescriptor<string, Raw> = {
  action: COMPANY_FINANCIAL_PROFILE,
  rootField: 'financialProfiles',
  cacheKey: (symbol) => symbol,
  body: (symbols) => ({ company: symbols }),
  parse: (envelope, symbol) => {
    const profile = profilesBySymbol(envelope, [symbol]).get(symbol)!;
    if (profile instanceof Error) throw profile;
    return profile;
  },
  ttlSeconds: 120,
  liveSeconds: 5,
  namesSymbols: true, // a profile's company leads to its ticker
  batchedSymbols: true,
  load: (ctx, symbol) => loadFinancialProfile(ctx, symbol),
};
