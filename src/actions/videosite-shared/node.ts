import { nodeInterface } from '../node.js';
import { VideositeVideo } from './video.js';

/** Every video type is a node (see each action's node.ts), so the video interface implements Node too. */
nodeInterface(VideositeVideo);
