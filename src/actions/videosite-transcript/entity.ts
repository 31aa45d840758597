import { lookupEntity } from '../entity.js';
import { requireVideoUrl } from '../videosite-shared/links.js';
import { videositeTranscriptAction } from './load.js';
import { VideositeTranscript } from './types.js';

/** A transcript is a Federation entity keyed by its video's URL (`requestedUrl`), in any form `videositeTranscript(url:)` accepts (a short link, an id). */
lookupEntity(VideositeTranscript, {
  key: 'requestedUrl',
  lookup: videositeTranscriptAction,
  canonical: requireVideoUrl,
});
