/** The action's schema (root field, types, the links it owns and its node ids) and its descriptor. */
import './field.js';
import './node.js';
import '../videosite-shared/video-links.js';
export { videositeTranscriptAction } from './load.js';
