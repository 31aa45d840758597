import { canonicalKey, itemNode, lookupNode } from '../node.js';
import { id, obj, objects } from '../../schema/read.js';
import { requireChannelUrl } from '../videosite-shared/links.js';
import { GET_VIDEOSITE_CHANNEL, loadChannel } from './load.js';
import { VideositeChannel } from './types.js';
import { VideositeHighlightedVideo, VideositeSectionVideo } from './types/videos.js';

const loadByKey: Parameters<typeof lookupNode<import('./load.js').ChannelSource>>[1]['load'] = (ctx, key) =>
  loadChannel(
    ctx,
    canonicalKey(key, (value) => requireChannelUrl('id', value)),
  );

/** A channel is a node keyed by the canonical channel URL it was looked up by (the root field's and the links' key). */
lookupNode(VideositeChannel, {
  action: GET_VIDEOSITE_CHANNEL,
  keyOf: (channel) => channel.requestedUrl,
  load: loadByKey,
});

/** A video of a channel's shelves: keyed by the channel lookup and the video id; fetched again from the channel page. */
itemNode(VideositeSectionVideo, {
  action: GET_VIDEOSITE_CHANNEL,
  itemKey: (video) => id(video.id),
  load: loadByKey,
  items: (channel) => objects(channel.raw.videos_sections).flatMap((section) => objects(section.videos)),
});

/** The channel's highlighted video: keyed by the channel lookup and the video id. */
itemNode(VideositeHighlightedVideo, {
  action: GET_VIDEOSITE_CHANNEL,
  itemKey: (video) => id(video.id),
  load: loadByKey,
  items: (channel) => {
    const video = obj(channel.raw.highlighted_video);
    return video ? [video] : [];
  },
});
