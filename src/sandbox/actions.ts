export { SandboxInputError } from './input-error.js';
import { companyObject } from './samples/company-object.js';
import { crmOwners } from './samples/crm-owners.js';
import { domainInfo } from './samples/domain-info.js';
import { financialProfiles } from './samples/financial-profile.js';
import { microblogPosts } from './samples/microblog-posts.js';
import { photosocialProfile } from './samples/photosocial-profile.js';
import { professionalnetProfile } from './samples/professionalnet-profile.js';
import { searchNews } from './samples/search-news.js';
import { videositeChannel } from './samples/videosite-channel.js';
import { videositeSearch } from './samples/videosite-search.js';
import { videositeTranscript } from './samples/videosite-transcript.js';

export interface SandboxAction {
  /** Body fields the live service requires (all of them, in practice). */
  required: string[];
  /** The envelope minus `status`: `response` and any sibling the action sends. */
  respond(body: Record<string, unknown>): Record<string, unknown>;
}

export const SANDBOX_ACTIONS: Record<string, SandboxAction> = {
  domain_info: { required: ['domain'], respond: (b) => ({ response: domainInfo(String(b.domain)) }) },
  get_photosocial_profile: { required: ['username'], respond: (b) => ({ response: { response: photosocialProfile(String(b.username)) } }) },
  get_videosite_channel: { required: ['url'], respond: (b) => ({ response: videositeChannel(String(b.url)) }) },
  get_videosite_transcript: { required: ['url'], respond: (b) => videositeTranscript(String(b.url)) },
  get_search_news: { required: ['query', 'date_range'], respond: (b) => ({ response: searchNews(String(b.query), String(b.date_range)) }) },
  get_professionalnet_profile: { required: ['profile_handle'], respond: (b) => ({ response: professionalnetProfile(String(b.profile_handle)) }) },
  get_company_object: { required: ['domain'], respond: (b) => ({ response: companyObject(String(b.domain)) }) },
  run_videosite_search: { required: ['query'], respond: (b) => ({ response: videositeSearch(String(b.query)) }) },
  company_financial_profile: { required: ['company'], respond: (b) => ({ response: financialProfiles(String(b.company)) }) },
  get_crm_owners: { required: ['crm_portal'], respond: (b) => ({ response: crmOwners(String(b.crm_portal)) }) },
  search_microblog_posts: { required: ['query', 'num_posts'], respond: (b) => ({ response: microblogPosts(String(b.query), b.num_posts) }) },
};
