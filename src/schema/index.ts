import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import { FreshDirective, withFreshReads } from '../cache/fresh.js';
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
// The upstream text beside parsed dates (exact values).
import './upstream-texts.js';
// Identity: `id` on every object a lookup returns, the Node interface, node(id:) and nodes(ids:).
import '../identity/node.js';
import '../actions/company-object/node.js';
import '../actions/crm-owners/node.js';
import '../actions/domain-info/node.js';
import '../actions/financial-profile/node.js';
import '../actions/microblog-posts/node.js';
import '../actions/photosocial-profile/node.js';
import '../actions/professionalnet-profile/node.js';
import '../actions/search-news/node.js';
import '../actions/videosite-channel/node.js';
import '../actions/videosite-search/node.js';
import '../actions/videosite-shared/node.js';
import '../actions/videosite-transcript/node.js';

/** The whole schema, sorted so that its printed form is stable. */
export const schema = withFreshReads(lexicographicSortSchema(builder.toSchema({ directives: [FreshDirective] })));
