import { GraphQLSchema, lexicographicSortSchema, specifiedDirectives } from 'graphql';
import { GraphQLDeferDirective, GraphQLStreamDirective } from '../incremental/index.js';
import { builder } from './builder.js';
import '../actions/domain-info/field.js';
import '../actions/financial-profile/field.js';
import '../actions/crm-owners/field.js';
import '../actions/microblog-posts/field.js';
import '../actions/search-news/field.js';
import '../actions/videosite-channel/field.js';
import '../actions/videosite-transcript/field.js';
import '../actions/videosite-search/field.js';
import '../actions/professionalnet-profile/field.js';
import '../actions/company-object/field.js';
import '../actions/photosocial-profile/field.js';
// Links between lookups (the graph): each costed (src/cost) and resolved through the loaders.
import '../actions/company-object/links.js';
import '../actions/domain-info/links.js';
import '../actions/financial-profile/links.js';
import '../actions/videosite-shared/video-links.js';
import '../actions/videosite-search/links.js';

/**
 * The whole schema, sorted so that its printed form is stable. It declares @defer and @stream
 * (incremental delivery, src/incremental) so that clients and codegen validate against them.
 */
export const schema = lexicographicSortSchema(
  new GraphQLSchema({ ...builder.toSchema().toConfig(), directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective] }),
);
