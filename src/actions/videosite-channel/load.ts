import type { GatewayContext } from '../../context.js';
import type { Raw } from '../../schema/read.js';
import { lookup, responseObject, type LookupSpec } from '../loader.js';

export const GET_VIDEOSITE_CHANNEL = 'get_videosite_channel';

/** A channel page as the upstream sent it, with the URL it was asked for. */
export interface ChannelSource {
  raw: Raw;
  requestedUrl: string;
}

const spec: LookupSpec<string, ChannelSource> = {
  action: GET_VIDEOSITE_CHANNEL,
  cacheKey: (url) => url,
  body: (url) => ({ url }),
  parse: (envelope, url) => ({ raw: responseObject(envelope, GET_VIDEOSITE_CHANNEL), requestedUrl: url }),
};

/** `url` must already be validated and normalised by requireHttpUrl. */
export function loadChannel(ctx: GatewayContext, url: string): Promise<ChannelSource> {
  return lookup(ctx, spec, url);
}
