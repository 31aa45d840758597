import type { GatewayContext } from '../../operation/context.js';
import { obj, type Raw } from '../../schema/read.js';
import { defineLookup } from '../descriptor.js';
import { wrongShape } from '../loader.js';

export const GET_VIDEOSITE_TRANSCRIPT = 'get_videosite_transcript';

/** A transcript as the upstream sent it: `response` is one string, `metadata` its sibling. */
export interface TranscriptSource {
  response: string;
  metadata: Raw | null;
  requestedUrl: string;
}

/** A video's transcript. The key is the canonical watch URL (requireVideoUrl / canonicalVideoUrl). */
export const videositeTranscriptAction = defineLookup<string, TranscriptSource>({
  action: GET_VIDEOSITE_TRANSCRIPT,
  rootField: 'videositeTranscript',
  cacheKey: (url) => url,
  body: (url) => ({ url }),
  parse: (envelope, url) => {
    if (typeof envelope.response !== 'string') throw wrongShape(GET_VIDEOSITE_TRANSCRIPT, 'a string');
    return { response: envelope.response, metadata: obj(envelope.metadata), requestedUrl: url };
  },
  ttlSeconds: 24 * 3600,
  liveSeconds: 3600,
  namesSymbols: false,
});

/** `url` must already be the canonical watch URL (requireVideoUrl / canonicalVideoUrl). */
export function loadTranscript(ctx: GatewayContext, url: string): Promise<TranscriptSource> {
  return videositeTranscriptAction.load(ctx, url);
}
