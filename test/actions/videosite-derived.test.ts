import { describe, expect, it } from 'vitest';
import { handleOf, splitKeywords, timestamp } from '../../src/actions/videosite-channel/derive.js';
import { count } from '../../src/actions/videosite-shared/count.js';
import { formatDuration, parseDuration } from '../../src/actions/videosite-shared/duration.js';
import { unmodelledKeys } from '../../src/actions/videosite-shared/extra.js';
import { linkUrl, webUrl } from '../../src/actions/videosite-shared/links.js';
import { thumbnailOf } from '../../src/actions/videosite-shared/thumbnail.js';
import { publishedDate, splitTranscript } from '../../src/actions/videosite-transcript/derive.js';

describe('parseDuration', () => {
  it.each([
    ['0:07', 7],
    ['4:05', 245],
    ['54:47', 3287],
    ['59:59', 3599],
    ['123:45', 7425],
    ['1:02:03', 3723],
    ['10:00:00', 36000],
    [' 7:08 ', 428],
  ])('reads %j as %d seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each([
    ['LIVE'],
    ['SHORTS'],
    [''],
    ['1:2'],
    ['4:5'],
    ['10:60'],
    ['1:60:00'],
    ['1:2:03'],
    ['1:02:03:04'],
    [':30'],
    ['-1:30'],
    ['1.5:30'],
    ['5'],
    [null],
    [245],
  ])('reads malformed %j as null', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0:00'],
    [7, '0:07'],
    [245, '4:05'],
    [3287, '54:47'],
    [3600, '1:00:00'],
    [3723, '1:02:03'],
  ])('writes %d seconds as %j', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('writes nothing for a missing, negative or fractional count', () => {
    expect([formatDuration(null), formatDuration(-1), formatDuration(1.5)]).toEqual([null, null, null]);
  });
});

describe('thumbnailOf', () => {
  it('reads a plain string as a still image', () => {
    expect(thumbnailOf('https://i.example/a.jpg')).toEqual({
      static: 'https://i.example/a.jpg',
      rich: null,
      url: 'https://i.example/a.jpg',
    });
  });
  it('reads a {rich, static} object, showing the still image', () => {
    expect(thumbnailOf({ rich: 'https://i.example/a.webp', static: 'https://i.example/a.jpg' })).toEqual({
      static: 'https://i.example/a.jpg',
      rich: 'https://i.example/a.webp',
      url: 'https://i.example/a.jpg',
    });
  });
  it('shows the animated image when there is no still one', () => {
    expect(thumbnailOf({ rich: 'https://i.example/a.webp' })?.url).toBe('https://i.example/a.webp');
  });
  it('gives a protocol-relative URL https', () => {
    expect(thumbnailOf('//i.example/a.jpg')?.url).toBe('https://i.example/a.jpg');
  });
  it.each([
    [''],
    ['not a url'],
    ['ftp://i.example/a.jpg'],
    [{}],
    [{ static: 5 }],
    [['https://i.example/a.jpg']],
    [null],
    [42],
  ])('reads %j as no thumbnail', (value) => {
    expect(thumbnailOf(value)).toBeNull();
  });
});

describe('splitKeywords', () => {
  it('keeps quoted multi-word keywords whole', () => {
    expect(splitKeywords('music "live concert" tour "live concert"')).toEqual(['music', 'live concert', 'tour']);
  });
  it('splits comma-separated keywords', () => {
    expect(splitKeywords('cooking, baking , bread,')).toEqual(['cooking', 'baking', 'bread']);
  });
  it('splits on white space otherwise', () => {
    expect(splitKeywords('  a   b\tc ')).toEqual(['a', 'b', 'c']);
  });
  it('reads empty or non-string keywords as none', () => {
    expect([splitKeywords(''), splitKeywords(null), splitKeywords(['a'])]).toEqual([[], [], []]);
  });
});

describe('channel text helpers', () => {
  it.each([
    ['2024-04-12T10:23:11Z', '2024-04-12T10:23:11Z'],
    ['2024-04-12T10:23:11.5+02:00', '2024-04-12T10:23:11.5+02:00'],
    ['2024-04-12 10:23:11 UTC', '2024-04-12T10:23:11Z'],
    ['2024-04-12 10:23:11', null],
    ['yesterday', null],
    ['2024-13-40T99:00:00Z', null],
  ])('timestamp(%j) is %j', (value, expected) => {
    expect(timestamp(value)).toBe(expected);
  });

  it('tells a handle from a channel id', () => {
    expect([
      handleOf('@name'),
      handleOf(' @name '),
      handleOf('UCabc'),
      handleOf('@'),
      handleOf('@a b'),
      handleOf(7),
    ]).toEqual(['@name', '@name', null, null, null, null]);
  });

  it('makes links absolute', () => {
    expect(linkUrl('instagram.com/name')).toBe('https://instagram.com/name');
    expect(linkUrl('https://x.example/a')).toBe('https://x.example/a');
    expect(linkUrl('//x.example/a')).toBe('https://x.example/a');
    expect([linkUrl('not a link'), linkUrl('mailto:a@b.example'), linkUrl(null)]).toEqual([null, null, null]);
    expect(webUrl('instagram.com/name')).toBeNull();
  });

  it('collects the keys the schema does not model', () => {
    expect(unmodelledKeys({ a: 1, country: 'US', channels: [] }, new Set(['a']))).toEqual({
      country: 'US',
      channels: [],
    });
    expect(unmodelledKeys({ a: 1 }, new Set(['a']))).toBeNull();
  });
});

describe('count', () => {
  it.each([
    [14000000000, 14000000000],
    ['14000000000', 14000000000],
    ['1,234', 1234],
    [0, 0],
    [-5, null],
    [1.5, null],
    [2 ** 60, null],
    ['12 views', null],
    ['', null],
    [null, null],
  ])('count(%j) is %j', (value, expected) => {
    expect(count(value)).toBe(expected);
  });
});

describe('splitTranscript', () => {
  it('splits the title from the text at the first newline', () => {
    expect(splitTranscript('Title\nFirst line.\nSecond line.')).toEqual({
      title: 'Title',
      text: 'First line.\nSecond line.',
    });
  });
  it.each([['Title\n'], ['Title'], ['Title\r\n'], ['  Title  \n  \n']])(
    'reads %j as a title with empty text',
    (response) => {
      expect(splitTranscript(response)).toEqual({ title: 'Title', text: '' });
    },
  );
  it('reads an empty first line as no title', () => {
    expect(splitTranscript('\nText')).toEqual({ title: null, text: 'Text' });
    expect(splitTranscript('')).toEqual({ title: null, text: '' });
  });
  it('reads the publish date of a date or timestamp', () => {
    expect([
      publishedDate('2024-03-05'),
      publishedDate('2024-03-05T10:00:00-08:00'),
      publishedDate('Mar 5, 2024'),
      publishedDate('2024-02-30'),
    ]).toEqual(['2024-03-05', '2024-03-05', '2024-03-05', null]);
  });
});
