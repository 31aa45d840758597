import { builder } from '../../schema/builder.js';
import { badInput } from '../../kernel/errors.js';
import type { SymbolsArgument } from '../../cost/model.js';
import { symbolKey } from '../link-keys.js';
import { settledItems } from '../loader.js';
import { canonicalSymbol, financialProfileAction, loadFinancialProfile } from './load.js';
import { FinancialProfile } from './types.js';

const MAX_SYMBOLS_PER_FIELD = 100;

builder.queryField(financialProfileAction.rootField, (t) =>
  t.field({
    type: [FinancialProfile],
    nullable: { list: true, items: true },
    description:
      'Financial and market profiles by stock symbol (upstream action company_financial_profile), in the order asked. Every symbol asked anywhere in one operation goes upstream in one call. A symbol the upstream does not know is null with a NOT_FOUND error at its index; the others still resolve.',
    // The estimate counts distinct canonical symbols, batched.
    extensions: {
      symbols: { argument: 'symbols', canonical: symbolKey, max: MAX_SYMBOLS_PER_FIELD } satisfies SymbolsArgument,
    },
    args: {
      symbols: t.arg.stringList({
        required: true,
        // Read by the MCP tools' input schemas.
        extensions: { jsonSchema: { minItems: 1, maxItems: MAX_SYMBOLS_PER_FIELD } },
        description: `Stock symbols, e.g. ["AAPL", "NKE"]; case-insensitive, 1 to ${MAX_SYMBOLS_PER_FIELD}. Index symbols keep their caret ("^GSPC"); a share class may be written "BRK.B", "BRK/B" or "BRK-B" (looked up as "BRK-B"); a leading "$" is ignored.`,
      }),
    },
    resolve: (_root, args, ctx) => {
      if (args.symbols.length === 0) throw badInput('"symbols" must name at least one symbol', { argument: 'symbols' });
      if (args.symbols.length > MAX_SYMBOLS_PER_FIELD) {
        throw badInput(`"symbols" may name at most ${MAX_SYMBOLS_PER_FIELD} symbols`, {
          argument: 'symbols',
          max: MAX_SYMBOLS_PER_FIELD,
        });
      }
      const symbols = args.symbols.map((symbol) => canonicalSymbol('symbols', symbol));
      return settledItems(symbols.map((symbol) => loadFinancialProfile(ctx, symbol)));
    },
  }),
);
