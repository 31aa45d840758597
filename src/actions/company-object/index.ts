/** The action's schema (root field, types, the links it owns and its node ids) and its descriptor. */
import './field.js';
import './links.js';
import './node.js';
export { companyObjectAction } from './load.js';
