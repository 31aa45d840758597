/** The action's schema (root field, types, the links it owns, its node ids and its Federation entity) and its descriptor. */
import './field.js';
import './node.js';
import './entity.js';
export { professionalnetProfileAction } from './load.js';
