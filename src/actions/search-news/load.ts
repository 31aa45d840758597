import type { GatewayContext } from '../../operation/context.js';
import type { Raw } from '../../schema/read.js';
import { defineLookup } from '../descriptor.js';
import { responseObject } from '../loader.js';

export const GET_SEARCH_NEWS = 'get_search_news';

/** The time windows the upstream accepts for `date_range`, as it writes them. */
export const NEWS_DATE_RANGES = ['24h', '7d', '30d'] as const;
export type NewsDateRangeValue = (typeof NEWS_DATE_RANGES)[number];

export interface NewsQuery {
  /** Validated, trimmed, runs of whitespace collapsed to one space. */
  query: string;
  dateRange: NewsDateRangeValue;
}

/** A news search result as the upstream sent it, with the search that produced it. */
export interface NewsSearchSource {
  raw: Raw;
  query: string;
  dateRange: NewsDateRangeValue;
}

/** News search. The key is the whitespace-collapsed query and the time window. */
export const searchNewsAction = defineLookup<NewsQuery, NewsSearchSource>({
  action: GET_SEARCH_NEWS,
  rootField: 'news',
  cacheKey: (search) => JSON.stringify([search.query, search.dateRange]),
  // Both fields are always sent: every known client does, and the service requires them in practice.
  body: (search) => ({ query: search.query, date_range: search.dateRange }),
  parse: (envelope, search) => ({
    raw: responseObject(envelope, GET_SEARCH_NEWS),
    query: search.query,
    dateRange: search.dateRange,
  }),
  ttlSeconds: 300,
  liveSeconds: 60,
  namesSymbols: false,
});

/** One upstream call per distinct (query, range) per operation; `search` must already be validated. */
export function loadNews(ctx: GatewayContext, search: NewsQuery): Promise<NewsSearchSource> {
  return searchNewsAction.load(ctx, search);
}
