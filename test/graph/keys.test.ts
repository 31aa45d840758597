import { describe, expect, it } from 'vitest';
import { domainKey, symbolKey, websiteDomain } from '../../src/actions/link-keys.js';
import { channelUrl } from '../../src/actions/videosite-search/links.js';
import { canonicalVideoUrl } from '../../src/actions/videosite-shared/links.js';

describe('link keys', () => {
  it.each([
    ['https://www.videosite.example/watch?v=qW3eR7tY1uI', 'https://www.videosite.example/watch?v=qW3eR7tY1uI'],
    [
      'https://www.videosite.example/watch?v=qW3eR7tY1uI&pp=ygUHc2FuZGJveA%3D%3D',
      'https://www.videosite.example/watch?v=qW3eR7tY1uI',
    ],
    [
      'http://WWW.VideoSite.example/watch?t=12&v=qW3eR7tY1uI#comments',
      'https://www.videosite.example/watch?v=qW3eR7tY1uI',
    ],
    ['https://m.videosite.example/watch?v=qW3eR7tY1uI', 'https://www.videosite.example/watch?v=qW3eR7tY1uI'],
    ['https://www.videosite.example/shorts/sH0rT1aBcDe', 'https://www.videosite.example/watch?v=sH0rT1aBcDe'],
    ['//www.videosite.example/embed/qW3eR7tY1uI', 'https://www.videosite.example/watch?v=qW3eR7tY1uI'],
    ['https://vid.example/abc#x', 'https://vid.example/abc'],
    ['not a url', null],
    ['javascript:alert(1)', null],
    [null, null],
  ])('canonicalVideoUrl(%j) is %j', (value, expected) => {
    expect(canonicalVideoUrl(value)).toBe(expected);
  });

  it.each([
    ['https://www.hubspot.com', 'hubspot.com'],
    ['https://investors.nike.com', 'nike.com'],
    ['https://investor.atmeta.com/', 'atmeta.com'],
    ['https://abc.xyz', 'abc.xyz'],
    ['https://www.bbc.co.uk/corporate', 'bbc.co.uk'],
    ['http://shop.example.com.au', 'example.com.au'],
    ['https://10.0.0.1/', null],
    ['ftp://files.example.com', null],
    ['hubspot.com', null],
    ['', null],
    [null, null],
  ])('websiteDomain(%j) is %j', (value, expected) => {
    expect(websiteDomain(value)).toBe(expected);
  });

  it('reads symbols and domains as the root fields take them, null when malformed', () => {
    expect(symbolKey(' hubs ')).toBe('HUBS');
    expect(symbolKey('N/A; DROP')).toBeNull();
    expect(symbolKey('')).toBeNull();
    expect(symbolKey(42)).toBeNull();
    expect(domainKey('HubSpot.com.')).toBe('hubspot.com');
    expect(domainKey('not a domain')).toBeNull();
    expect(channelUrl('https://www.videosite.example/@sandboxstudio#about')).toBe(
      'https://www.videosite.example/@sandboxstudio',
    );
    expect(channelUrl('mailto:x@example.com')).toBeNull();
  });
});
