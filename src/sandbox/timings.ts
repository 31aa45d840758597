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

/** What the sandbox's settings know of an action; its sample data (./samples/) loads only with the sandbox. */
export interface SandboxTiming {
  /** The action's name in SANDBOX_LATENCY (e.g. "transcript:2500"). */
  shortName: string;
  /** Its delay under SANDBOX_LATENCY=realistic: the order of magnitude the live service shows, for demos. */
  realisticLatencyMs: number;
}

/** Every action the sandbox answers, by action name. */
export const SANDBOX_TIMINGS: Readonly<Record<string, SandboxTiming>> = {
  [companyObjectAction.action]: { shortName: 'company', realisticLatencyMs: 400 },
  [crmOwnersAction.action]: { shortName: 'crm', realisticLatencyMs: 300 },
  [domainInfoAction.action]: { shortName: 'domain', realisticLatencyMs: 300 },
  [financialProfileAction.action]: { shortName: 'financial', realisticLatencyMs: 500 },
  [microblogPostsAction.action]: { shortName: 'microblog', realisticLatencyMs: 1500 },
  [photosocialProfileAction.action]: { shortName: 'photosocial', realisticLatencyMs: 1200 },
  [professionalnetProfileAction.action]: { shortName: 'professionalnet', realisticLatencyMs: 1500 },
  [searchNewsAction.action]: { shortName: 'news', realisticLatencyMs: 1800 },
  [videositeChannelAction.action]: { shortName: 'channel', realisticLatencyMs: 800 },
  [videositeSearchAction.action]: { shortName: 'videosearch', realisticLatencyMs: 2000 },
  [videositeTranscriptAction.action]: { shortName: 'transcript', realisticLatencyMs: 2500 },
};
