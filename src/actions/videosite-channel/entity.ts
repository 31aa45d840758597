import { lookupEntity } from '../entity.js';
import { requireChannelUrl } from '../videosite-shared/links.js';
import { videositeChannelAction } from './load.js';
import { VideositeChannel } from './types.js';

/** A channel is a Federation entity keyed by its URL (`requestedUrl`), in any form `videositeChannel(url:)` accepts ("@name", a sub-page, an id). */
lookupEntity(VideositeChannel, { key: 'requestedUrl', lookup: videositeChannelAction, canonical: requireChannelUrl });
