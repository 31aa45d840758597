/** The action's schema (root field, types and the links it owns) and its descriptor. */
import './field.js';
import './links.js';
export { financialProfileAction } from './load.js';
