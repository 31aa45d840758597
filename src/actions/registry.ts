/**
 * Every action of the gateway, one line each. Adding an action = its folder (load.ts with its
 * descriptor, field.ts, types, an index.ts that registers them) + one line here.
 */
export { companyObjectAction } from './company-object/index.js';
export { crmOwnersAction } from './crm-owners/index.js';
export { domainInfoAction } from './domain-info/index.js';
export { financialProfileAction } from './financial-profile/index.js';
export { microblogPostsAction } from './microblog-posts/index.js';
export { photosocialProfileAction } from './photosocial-profile/index.js';
export { professionalnetProfileAction } from './professionalnet-profile/index.js';
export { searchNewsAction } from './search-news/index.js';
export { videositeChannelAction } from './videosite-channel/index.js';
export { videositeSearchAction } from './videosite-search/index.js';
export { videositeTranscriptAction } from './videosite-transcript/index.js';
