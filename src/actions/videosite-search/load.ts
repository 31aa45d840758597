import type { GatewayContext } from '../../context.js';
import type { Raw } from '../../schema/read.js';
import { lookup, responseObject, type LookupSpec } from '../loader.js';

export const RUN_VIDEOSITE_SEARCH = 'run_videosite_search';

/** A video search result as the upstream sent it, with the query it was asked for. */
export interface VideoSearchSource {
  raw: Raw;
  query: string;
}

const spec: LookupSpec<string, VideoSearchSource> = {
  action: RUN_VIDEOSITE_SEARCH,
  cacheKey: (query) => query,
  body: (query) => ({ query }),
  parse: (envelope, query) => ({ raw: responseObject(envelope, RUN_VIDEOSITE_SEARCH), query }),
};

/** `query` must already be validated, trimmed and whitespace-collapsed. */
export function loadVideoSearch(ctx: GatewayContext, query: string): Promise<VideoSearchSource> {
  return lookup(ctx, spec, query);
}
