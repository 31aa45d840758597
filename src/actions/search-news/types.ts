import { builder } from '../../schema/builder.js';
import { float, int, obj, objects, type Raw, safeInt, str, text, url } from '../../schema/read.js';
import type { NewsSearchSource } from './load.js';

export const NewsDateRange = builder.enumType('NewsDateRange', {
  description: 'A time window for a news search: only articles published within it are returned.',
  values: {
    PAST_DAY: { value: '24h', description: 'The last 24 hours (upstream `date_range` "24h"). The default.' },
    PAST_WEEK: { value: '7d', description: 'The last 7 days (upstream `date_range` "7d").' },
    PAST_MONTH: { value: '30d', description: 'The last 30 days (upstream `date_range` "30d").' },
  } as const,
});

interface NewsPageLink {
  page: number;
  url: string;
}

/**
 * `other_pages` maps page numbers ("2".."10") to URLs. Pages come back ordered by number (10 after 9,
 * never after 1); keys that are not positive page numbers and values that are not http(s) URLs are
 * left out here (they stay visible in `otherPagesByNumber`).
 */
function otherPages(value: unknown): NewsPageLink[] {
  const pages = obj(value);
  if (!pages) return [];
  return Object.entries(pages)
    .flatMap(([key, link]) => {
      const href = url(link);
      return /^[1-9]\d{0,8}$/.test(key) && href !== null ? [{ page: Number(key), url: href }] : [];
    })
    .sort((a, b) => a.page - b.page);
}

const NewsPageLinkRef = builder.objectRef<NewsPageLink>('NewsPageLink').implement({
  description: 'A link to one further page of the same news search.',
  fields: (t) => ({
    page: t.int({ nullable: false, description: 'Page number, from 2 upwards.', resolve: (p) => p.page }),
    url: t.field({
      type: 'URL',
      nullable: false,
      description: 'Address of that results page on the search engine.',
      resolve: (p) => p.url,
    }),
  }),
});

export const NewsArticle = builder.objectRef<Raw>('NewsArticle').implement({
  description: 'One news article in the results (upstream `organic_results[]`).',
  fields: (t) => ({
    position: t.int({
      description: 'Rank of the article in the results, starting at 1.',
      resolve: (a) => int(a.position),
    }),
    title: t.string({ description: 'Headline of the article.', resolve: (a) => str(a.title) }),
    link: t.field({
      type: 'URL',
      description:
        "Address of the article on the publisher's site. Null when the upstream value is not an http(s) URL.",
      resolve: (a) => url(a.link),
    }),
    snippet: t.string({
      description: 'A short excerpt or summary shown under the headline.',
      resolve: (a) => str(a.snippet),
    }),
    source: t.string({ description: 'Name of the publisher, e.g. "Reuters".', resolve: (a) => str(a.source) }),
    date: t.string({
      description:
        'When the article was published, as relative display text from the time of the search (e.g. "3 hours ago", "2 days ago"). Not a timestamp: show it as is.',
      resolve: (a) => str(a.date),
    }),
    favicon: t.string({
      description:
        "The publisher's icon as a data URI (`data:image/...;base64,...`), usable directly as an <img> src. Large (several kilobytes per article): select it only when you display it.",
      resolve: (a) => str(a.favicon),
    }),
    thumbnail: t.string({
      description:
        'A small picture for the article as a data URI (`data:image/...;base64,...`), usable directly as an <img> src. Large (several kilobytes per article): select it only when you display it.',
      resolve: (a) => str(a.thumbnail),
    }),
  }),
});

const NewsPagination = builder.objectRef<Raw>('NewsPagination').implement({
  description: 'Where these results sit among the pages of the search, and links to the other pages.',
  fields: (t) => ({
    current: t.int({ description: 'Number of the page these results are, usually 1.', resolve: (p) => int(p.current) }),
    next: t.field({
      type: 'URL',
      description: 'Address of the next results page on the search engine; null on the last page.',
      resolve: (p) => url(p.next),
    }),
    hasNextPage: t.boolean({
      nullable: false,
      description: 'Whether there is a next results page (`next` is present).',
      resolve: (p) => url(p.next) !== null,
    }),
    otherPages: t.field({
      type: [NewsPageLinkRef],
      nullable: false,
      description:
        'Links to the other results pages (usually pages 2 to 10), in page-number order. Empty when there are none.',
      resolve: (p) => otherPages(p.other_pages),
    }),
    otherPagesByNumber: t.field({
      type: 'JSON',
      description:
        'The upstream `other_pages` object exactly as sent: page number as a string key, URL as value, e.g. {"2": "https://..."}. Prefer `otherPages`.',
      resolve: (p) => obj(p.other_pages),
    }),
  }),
});

const NewsSearchInformation = builder.objectRef<Raw>('NewsSearchInformation').implement({
  description: 'Facts the search engine reported about the search.',
  fields: (t) => ({
    detectedLocation: t.string({
      description: 'Location the search engine assumed for the searcher, e.g. "United States".',
      resolve: (i) => str(i.detected_location),
    }),
    queryDisplayed: t.string({
      description: 'The query as the search engine displayed it (it may correct or rewrite the query sent).',
      resolve: (i) => str(i.query_displayed),
    }),
    timeTakenDisplayed: t.float({
      description: 'Seconds the search took, as the search engine displayed it (e.g. 0.38).',
      resolve: (i) => float(i.time_taken_displayed),
    }),
    totalResults: t.field({
      type: 'SafeInt',
      description: "The search engine's estimate of all matching results, across all pages; can exceed 2^31.",
      resolve: (i) => safeInt(i.total_results),
    }),
  }),
});

const NewsSearchParameters = builder.objectRef<Raw>('NewsSearchParameters').implement({
  description: 'The parameters the upstream used for the search on the search engine.',
  fields: (t) => ({
    query: t.string({ description: 'The search terms sent to the search engine.', resolve: (p) => str(p.q) }),
    engine: t.string({
      description: 'Name of the search engine mode the upstream used.',
      resolve: (p) => str(p.engine),
    }),
    device: t.string({
      description: 'Device type the search was made as, e.g. "desktop".',
      resolve: (p) => str(p.device),
    }),
    countryCode: t.string({
      description: 'Country the results were localised for, as a two-letter code (upstream `gl`), e.g. "us".',
      resolve: (p) => str(p.gl),
    }),
    languageCode: t.string({
      description: 'Interface language of the results, as a language code (upstream `hl`), e.g. "en".',
      resolve: (p) => str(p.hl),
    }),
    location: t.string({ description: 'Location requested for the search.', resolve: (p) => str(p.location) }),
    locationUsed: t.string({
      description: 'Location the search engine actually used.',
      resolve: (p) => str(p.location_used),
    }),
    searchDomain: t.string({
      description:
        'Domain of the search engine that was queried (upstream `search_domain`, or the brand-named domain key), e.g. "www.search.example".',
      resolve: (p) => str(p.search_domain) ?? text(p.google_domain),
    }),
  }),
});

export const NewsSearch = builder.objectRef<NewsSearchSource>('NewsSearch').implement({
  description:
    'The first page of a news search: the articles found, links to further pages, and what the search engine reported.',
  fields: (t) => ({
    query: t.string({
      nullable: false,
      description: 'The search terms as the gateway sent them: trimmed, runs of whitespace collapsed to one space.',
      resolve: (s) => s.query,
    }),
    dateRange: t.field({
      type: NewsDateRange,
      nullable: false,
      description: 'The time window searched.',
      resolve: (s) => s.dateRange,
    }),
    organicResults: t.field({
      type: [NewsArticle],
      nullable: false,
      description: 'The articles found, in rank order (upstream `organic_results`). Empty when nothing matched.',
      resolve: (s) => objects(s.raw.organic_results),
    }),
    pagination: t.field({
      type: NewsPagination,
      description: 'Page position and links to the other results pages.',
      resolve: (s) => obj(s.raw.pagination),
    }),
    searchInformation: t.field({
      type: NewsSearchInformation,
      description: 'Facts the search engine reported about the search.',
      resolve: (s) => obj(s.raw.search_information),
    }),
    searchParameters: t.field({
      type: NewsSearchParameters,
      description: 'The parameters used for the search.',
      resolve: (s) => obj(s.raw.search_parameters),
    }),
  }),
});
