/** get_search_news (contract 2.5): minimal for now; the news issue completes it. */
export function searchNews(query: string, dateRange: string): Record<string, unknown> {
  return { organic_results: [], search_parameters: { q: query, engine: 'news', date_range: dateRange } };
}
