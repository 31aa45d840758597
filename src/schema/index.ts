import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
// Every action's root field, types and links (each link costed from its target's descriptor).
import '../actions/registry.js';

/** The whole schema, sorted so that its printed form is stable. */
export const schema = lexicographicSortSchema(builder.toSchema());
