import { builder } from '../../schema/builder.js';
import { requireText } from '../validate.js';
import { loadNews, searchNewsAction } from './load.js';
import { NewsDateRange, NewsSearch } from './types.js';

export const MAX_NEWS_QUERY_LENGTH = 500;

builder.queryField(searchNewsAction.rootField, (t) =>
  t.field({
    type: NewsSearch,
    description:
      'News articles from a web search engine matching a query within a time window (upstream action get_search_news): the first page of results with links to the next pages. One upstream call per distinct query and window per operation.',
    args: {
      query: t.arg.string({
        required: true,
        description: `Search terms, 1 to ${MAX_NEWS_QUERY_LENGTH} characters. Leading and trailing whitespace is ignored and runs of whitespace count as one space.`,
      }),
      dateRange: t.arg({
        type: NewsDateRange,
        required: true,
        defaultValue: '24h',
        description: 'How far back to search. Default PAST_DAY (the last 24 hours).',
      }),
    },
    resolve: (_root, args, ctx) => {
      const query = requireText('query', args.query, MAX_NEWS_QUERY_LENGTH).replace(/\s+/g, ' ');
      return loadNews(ctx, { query, dateRange: args.dateRange });
    },
  }),
);
