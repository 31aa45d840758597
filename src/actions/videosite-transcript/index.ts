/** The action's schema (root field, types, the links it owns, its node ids and its Federation entity) and its descriptor. */
import './field.js';
import './node.js';
import './entity.js';
import '../videosite-shared/video-links.js';
export { videositeTranscriptAction } from './load.js';
