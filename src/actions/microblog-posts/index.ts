/** The action's schema (root field, types and the links it owns) and its descriptor. */
import './field.js';
export { microblogPostsAction } from './load.js';
