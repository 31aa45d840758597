import type { GatewayContext } from '../../context.js';
import { obj, type Raw } from '../../schema/read.js';
import { lookup, wrongShape, type LookupSpec } from '../loader.js';

export const GET_VIDEOSITE_TRANSCRIPT = 'get_videosite_transcript';

/** A transcript as the upstream sent it: `response` is one string, `metadata` its sibling. */
export interface TranscriptSource {
  response: string;
  metadata: Raw | null;
  requestedUrl: string;
}

const spec: LookupSpec<string, TranscriptSource> = {
  action: GET_VIDEOSITE_TRANSCRIPT,
  cacheKey: (url) => url,
  body: (url) => ({ url }),
  parse: (envelope, url) => {
    if (typeof envelope.response !== 'string') throw wrongShape(GET_VIDEOSITE_TRANSCRIPT, 'a string');
    return { response: envelope.response, metadata: obj(envelope.metadata), requestedUrl: url };
  },
};

/** `url` must already be validated and normalised by requireHttpUrl. */
export function loadTranscript(ctx: GatewayContext, url: string): Promise<TranscriptSource> {
  return lookup(ctx, spec, url);
}
