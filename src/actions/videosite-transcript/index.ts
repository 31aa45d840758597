/** The action's schema (root field, types and the links it owns) and its descriptor. */
import './field.js';
import '../videosite-shared/video-links.js';
export { videositeTranscriptAction } from './load.js';
