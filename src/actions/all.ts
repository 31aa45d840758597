/**
 * Every action of the gateway. Importing this file registers each action's schema (its index.ts);
 * adding an action = its folder (load.ts with its descriptor, field.ts, types, an index.ts that
 * registers them) + one line in the list below.
 */
import { companyObjectAction } from './company-object/index.js';
import { crmOwnersAction } from './crm-owners/index.js';
import type { ActionDescriptor } from './descriptor.js';
import { domainInfoAction } from './domain-info/index.js';
import { financialProfileAction } from './financial-profile/index.js';
import { microblogPostsAction } from './microblog-posts/index.js';
import { photosocialProfileAction } from './photosocial-profile/index.js';
import { professionalnetProfileAction } from './professionalnet-profile/index.js';
import { searchNewsAction } from './search-news/index.js';
import { videositeChannelAction } from './videosite-channel/index.js';
import { videositeSearchAction } from './videosite-search/index.js';
import { videositeTranscriptAction } from './videosite-transcript/index.js';

/** Every action's descriptor. */
export const ACTIONS: readonly ActionDescriptor[] = [
  companyObjectAction,
  crmOwnersAction,
  domainInfoAction,
  financialProfileAction,
  microblogPostsAction,
  photosocialProfileAction,
  professionalnetProfileAction,
  searchNewsAction,
  videositeChannelAction,
  videositeSearchAction,
  videositeTranscriptAction,
];

/** The descriptor of an action by its upstream name. */
export function actionNamed(action: string): ActionDescriptor | undefined {
  return ACTIONS.find((descriptor) => descriptor.action === action);
}
