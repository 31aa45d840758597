import { canonicalKey, itemNode, lookupNode } from '../node.js';
import { id } from '../../schema/read.js';
import { requireVideoUrl } from '../videosite-shared/links.js';
import { GET_VIDEOSITE_TRANSCRIPT, loadTranscript } from './load.js';
import { VideositeTranscript, VideositeTranscriptVideo } from './types.js';

const loadByKey = (ctx: Parameters<typeof loadTranscript>[0], key: string) =>
  loadTranscript(
    ctx,
    canonicalKey(key, (value) => requireVideoUrl('id', value)),
  );

/** A transcript is a node keyed by the canonical watch URL it was looked up by. */
lookupNode(VideositeTranscript, {
  action: GET_VIDEOSITE_TRANSCRIPT,
  keyOf: (transcript) => transcript.requestedUrl,
  load: loadByKey,
});

/** The video details of a transcript: keyed by the transcript lookup and the video id. */
itemNode(VideositeTranscriptVideo, {
  action: GET_VIDEOSITE_TRANSCRIPT,
  itemKey: (video) => id(video.id),
  load: loadByKey,
  items: (transcript) => (transcript.metadata ? [transcript.metadata] : []),
});
