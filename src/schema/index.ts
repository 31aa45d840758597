import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import '../actions/domain-info/field.js';
import '../actions/financial-profile/field.js';
import '../actions/crm-owners/field.js';
import '../actions/microblog-posts/field.js';
import '../actions/search-news/field.js'
import '../actions/professionalnet-profile/field.js'
import '../actions/company-object/field.js'
import '../actions/videosite-channel/field.js'
import '../actions/videosite-transcript/field.js'
import '../actions/videosite-search/field.js'
import '../actions/photosocial-profile/field.js'

/** The whole schema, sorted so that its printed form is stable. */
export const schema = lexicographicSortSchema(builder.toSchema());
