/** The action's schema (root field, types, the links it owns and its node ids) and its descriptor. */
import './field.js';
import './node.js';
export { crmOwnersAction } from './load.js';
