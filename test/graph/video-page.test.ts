import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { upstreamGatewayFor } from '../support/fixtures.js';
import { json } from '../support/fault-upstream.js';

const PAGE = readFileSync(new URL('../../schema/examples/22-video-page.graphql', import.meta.url), 'utf8');

/** An upstream where every video and channel is distinct, so no lookup is shared: the page makes every call it can. */
describe('the realistic video page, with nothing shared', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'false' });
  beforeAll(async () => {
    const video = (id: string) => ({ id, title: id, link: `https://www.videosite.example/watch?v=${id}` });
    rig.up.handle((call, _req, res) => {
      if (call.action === 'run_videosite_search') {
        const videos = Array.from({ length: 20 }, (_, i) => ({
          ...video(`search${i}`),
          channel: { title: `C${i}`, link: `https://www.videosite.example/@c${i}` },
        }));
        return json(res, 200, { status: 200, response: { videos } });
      }
      if (call.action === 'get_videosite_channel') {
        const sections = Array.from({ length: 6 }, (_, s) => ({
          section_title: `S${s}`,
          videos: Array.from({ length: 12 }, (_, i) => video(`shelf${s}x${i}`)),
        }));
        return json(res, 200, {
          status: 200,
          response: { channel: { title: String(call.body.url) }, videos_sections: sections },
        });
      }
      return json(res, 200, { status: 200, response: `T\nText of ${call.body.url}`, metadata: {} });
    });
  });

  it('runs under the default budget, and the estimate in extensions equals the calls made', async () => {
    const { status, body } = await rig.gw.query(PAGE);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeSearch.videos).toHaveLength(5);
    expect(body.data!.videositeChannel.videosSections).toHaveLength(2);
    expect(body.data!.videositeChannel.videosSections[1].videos).toHaveLength(5);
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 22, cost: { estimated: 22, budget: 50 } });
    expect(rig.up.calls).toHaveLength(22);
  });

  it('without its `first:` arguments the page is refused before any call, and the error names the `first:` that fits', async () => {
    rig.up.calls.length = 0;
    const { status, body } = await rig.gw.query(PAGE.replace(/\(first: \d+\)/g, ''));
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    // 1 search + 20 videos x (transcript + channel) + 1 channel + 6 shelves x 12 transcripts.
    expect(body.errors![0]!.extensions).toMatchObject({
      code: 'COST_LIMIT_EXCEEDED',
      cost: 114,
      budget: 50,
      suggestions: [{ first: { 'videositeChannel.videosSections.videos': 1 }, cost: 48 }],
    });
    expect(body.errors![0]!.message).toContain('`first: 1` on videositeChannel.videosSections.videos (estimate 48)');
    expect(rig.up.calls).toHaveLength(0);
  });

  it('lists of plain data come back whole without `first:`, at the cost of their own lookup only', async () => {
    rig.up.calls.length = 0;
    const { body } = await rig.gw.query(`{
      videositeSearch(query: "x") { videos { title channel { title } } }
      videositeChannel(url: "@x") { videosSections { title videos { title } } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeSearch.videos).toHaveLength(20);
    expect(body.data!.videositeChannel.videosSections).toHaveLength(6);
    for (const section of body.data!.videositeChannel.videosSections) expect(section.videos).toHaveLength(12);
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 2, cost: { estimated: 2, budget: 50 } });
  });
});

describe('reachable keys of the current upstream shapes', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'false' });
  beforeAll(async () => {
    rig.up.handle((call, _req, res) => {
      if (call.action === 'get_crm_owners') {
        return json(res, 200, {
          status: 200,
          response: [
            {
              id: '1',
              userId: 9001,
              type: 'PERSON',
              archived: false,
              firstName: 'Ana',
              lastName: 'Lee',
              teams: [
                { id: '77', name: 'Sales', primary: true },
                { id: '78', name: 'EMEA', primary: false },
              ],
            },
            { id: '2', archived: true, firstName: 'Bo', lastName: 'Ek', teams: [] },
            { id: '3', firstName: '', lastName: '', userRole: 'x' },
            { id: '4', firstName: 'Cy', lastName: '', teams: ['Support'] },
          ],
        });
      }
      return json(res, 200, {
        status: 200,
        response: {
          highlighted_video: {
            id: 'h1',
            external_links: [
              { title: 'Shop', link: 'shop.example/x' },
              'https://merch.example/',
              { url: 'https://patreon.example/c' },
              42,
            ],
          },
        },
      });
    });
  });

  it('CRM owners: teams as objects or strings, archived, userId and type', async () => {
    const { body } = await rig.gw.query(
      '{ crmOwners(portal: "https://app.crm.example/contacts/0139981/objects") { id: ownerId userId type isArchived teams teamCount teamList { id name isPrimary } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(rig.up.calls[0]!.body).toEqual({ crm_portal: '139981' });
    expect(body.data!.crmOwners).toEqual([
      {
        id: '1',
        userId: '9001',
        type: 'PERSON',
        isArchived: false,
        teams: ['Sales', 'EMEA'],
        teamCount: 2,
        teamList: [
          { id: '77', name: 'Sales', isPrimary: true },
          { id: '78', name: 'EMEA', isPrimary: false },
        ],
      },
      { id: '2', userId: null, type: null, isArchived: true, teams: [], teamCount: 0, teamList: [] },
      { id: '3', userId: null, type: null, isArchived: true, teams: [], teamCount: 0, teamList: [] },
      {
        id: '4',
        userId: null,
        type: null,
        isArchived: false,
        teams: ['Support'],
        teamCount: 1,
        teamList: [{ id: null, name: 'Support', isPrimary: null }],
      },
    ]);
  });

  it("the highlighted video's external links", async () => {
    const { body } = await rig.gw.query(
      '{ videositeChannel(url: "@x") { highlightedVideo { externalLinks { title link url } } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeChannel.highlightedVideo.externalLinks).toEqual([
      { title: 'Shop', link: 'shop.example/x', url: 'https://shop.example/x' },
      { title: null, link: 'https://merch.example/', url: 'https://merch.example/' },
      { title: null, link: 'https://patreon.example/c', url: 'https://patreon.example/c' },
    ]);
  });
});
