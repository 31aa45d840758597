import { itemNode, keyParts, lookupNode } from '../node.js';
import { objects, text } from '../../schema/read.js';
import { badInput } from '../../kernel/errors.js';
import { requireText } from '../validate.js';
import { MAX_NEWS_QUERY_LENGTH } from './field.js';
import { GET_SEARCH_NEWS, loadNews, NEWS_DATE_RANGES, type NewsDateRangeValue } from './load.js';
import { NewsArticle, NewsSearch } from './types.js';

/**
 * An article is a node keyed by the search that found it and its link (its position, snippet and
 * "3 hours ago" belong to that search); fetched again by repeating the search (a cache hit while it
 * lives). The upstream has no lookup of one article, so one the search no longer returns is NOT_FOUND.
 */
function loadByKey(ctx: Parameters<typeof loadNews>[0], key: string) {
  const [query, dateRange] = keyParts(key, 2);
  if (
    typeof query !== 'string' ||
    !NEWS_DATE_RANGES.includes(dateRange as NewsDateRangeValue) ||
    requireText('id', query, MAX_NEWS_QUERY_LENGTH).replace(/\s+/g, ' ') !== query
  ) {
    throw badInput('This id does not name a lookup this gateway makes', { argument: 'id' });
  }
  return loadNews(ctx, { query, dateRange: dateRange as NewsDateRangeValue });
}

/** A news search is a node keyed by its query and time window (the lookup's cache key). */
lookupNode(NewsSearch, {
  action: GET_SEARCH_NEWS,
  keyOf: (search) => JSON.stringify([search.query, search.dateRange]),
  load: loadByKey,
});

itemNode(NewsArticle, {
  action: GET_SEARCH_NEWS,
  itemKey: (article) => text(article.link),
  load: loadByKey,
  items: (search) => objects(search.raw.organic_results),
});
