import { companyObjectAction } from '../actions/company-object/load.js';
import { crmOwnersAction } from '../actions/crm-owners/load.js';
import { domainInfoAction } from '../actions/domain-info/load.js';
import { financialProfileAction } from '../actions/financial-profile/load.js';
import { microblogPostsAction } from '../actions/microblog-posts/load.js';
import { photosocialProfileAction } from '../actions/photosocial-profile/load.js';
import { professionalnetProfileAction } from '../actions/professionalnet-profile/load.js';
import { searchNewsAction } from '../actions/search-news/load.js';
import { videositeChannelAction } from '../actions/videosite-channel/load.js';
import { videositeSearchAction } from '../actions/videosite-search/load.js';
import { videositeTranscriptAction } from '../actions/videosite-transcript/load.js';
import type { SandboxAnswer } from './answer.js';
import * as companyObject from './samples/company-object.js';
import * as crmOwners from './samples/crm-owners.js';
import * as domainInfo from './samples/domain-info.js';
import * as financialProfile from './samples/financial-profile.js';
import * as microblogPosts from './samples/microblog-posts.js';
import * as photosocialProfile from './samples/photosocial-profile.js';
import * as professionalnetProfile from './samples/professionalnet-profile.js';
import * as searchNews from './samples/search-news.js';
import * as videositeChannel from './samples/videosite-channel.js';
import * as videositeSearch from './samples/videosite-search.js';
import * as videositeTranscript from './samples/videosite-transcript.js';

/** The sandbox's answer for every action, by action name: each action's sample sits in samples/, named after its folder. */
export const SANDBOX_ACTIONS: Readonly<Record<string, SandboxAnswer>> = {
  [companyObjectAction.action]: companyObject.sandbox,
  [crmOwnersAction.action]: crmOwners.sandbox,
  [domainInfoAction.action]: domainInfo.sandbox,
  [financialProfileAction.action]: financialProfile.sandbox,
  [microblogPostsAction.action]: microblogPosts.sandbox,
  [photosocialProfileAction.action]: photosocialProfile.sandbox,
  [professionalnetProfileAction.action]: professionalnetProfile.sandbox,
  [searchNewsAction.action]: searchNews.sandbox,
  [videositeChannelAction.action]: videositeChannel.sandbox,
  [videositeSearchAction.action]: videositeSearch.sandbox,
  [videositeTranscriptAction.action]: videositeTranscript.sandbox,
};
