import { sampleBase64Url } from '../data/identity.js';
import { seededDate, seededFraction, seededInt, seededMagnitude, seededPick } from '../data/seeded.js';

/**
 * The sandbox's video site, shared by the channel, search and transcript samples so that one video
 * id is one video everywhere: its title, length, views, date and transcript are derived from the id,
 * and it belongs to one of the sandbox's channels (also derived from the id). A channel page of one
 * of those channels lists videos that belong to it; a channel page of any other handle is derived
 * from the handle, but its videos' transcripts name one of the sandbox's channels.
 */
export interface SandboxChannel {
  handle: string;
  title: string;
  id: string;
  isVerified: boolean;
}

export const SANDBOX_CHANNELS: readonly SandboxChannel[] = [
  { handle: '@sandboxstudio', title: 'Sandbox Studio', id: 'UCsandboxStudio0000000001', isVerified: true },
  { handle: '@sandboxvlogs', title: 'Sandbox Vlogs', id: 'UCsandboxVlogs00000000002', isVerified: false },
  { handle: '@makerlab', title: 'Maker Lab', id: 'UCmakerLab0000000000000003', isVerified: true },
  { handle: '@citylines', title: 'City Lines', id: 'UCcityLines000000000000004', isVerified: false },
];

interface Topic {
  title: string;
  question: string;
  lines: [string, string, string, string];
  moments: [string, string];
}

const TOPICS: readonly Topic[] = [
  {
    title: 'How a Zipper Is Made',
    question: 'How is a zipper made? We visit a factory that makes four million a day.',
    lines: [
      "Zippers are everywhere, and almost nobody knows how they're made.",
      'Today we are inside a factory that makes four million of them a day.',
      'It starts with a spool of brass wire, flattened and stamped into teeth.',
      'Each tooth is clamped onto a cotton tape at two thousand teeth a minute.',
    ],
    moments: ['Brass wire', 'Stamping the teeth'],
  },
  {
    title: 'The Hidden Engineering of Escalators',
    question: 'Why do escalators almost never stop? We go under the steps of a busy station.',
    lines: [
      'An escalator in a busy station carries ten thousand people an hour.',
      'Under the steps runs a chain loop the length of a football pitch.',
      'Every step rides on four wheels in two tracks that keep it level.',
      'At the top, a comb plate lifts your feet off before the step folds away.',
    ],
    moments: ['The chain loop', 'The comb plate'],
  },
  {
    title: 'Building a Bridge in 24 Hours',
    question: 'Can a motorway bridge be replaced in one night? A crew tries.',
    lines: [
      'The motorway closes at ten at night and must reopen by ten the next morning.',
      'The old bridge comes out in one piece, lifted by a self-propelled trailer.',
      'Its replacement was built beside the road over the last six months.',
      'By dawn the new deck is in place and the crew is paving the joints.',
    ],
    moments: ['Lifting the old deck', 'Sliding the new one in'],
  },
  {
    title: 'Inside the Port That Moves the World',
    question: "We spent a year inside the world's largest container port. This is what we found.",
    lines: [
      'Forty thousand containers cross this quay every single day.',
      'The cranes are driven from an office two kilometres away.',
      'Automated carriers shuffle boxes between the stacks all night.',
      'A ship that arrives at dawn is loaded and gone by the evening.',
    ],
    moments: ['The remote cranes', 'A day in the stacks'],
  },
  {
    title: 'How Glass Bottles Are Made',
    question: 'From sand to bottle in under a minute: a glassworks from the inside.',
    lines: [
      'Sand, soda ash and crushed old glass go into a furnace at fifteen hundred degrees.',
      'A blade cuts the molten stream into gobs of exactly the right weight.',
      'Each gob drops into a mould and is blown into a bottle in two steps.',
      'The bottles cool slowly for an hour so that they do not crack.',
    ],
    moments: ['The furnace', 'Blowing the bottle'],
  },
  {
    title: 'Why Subway Tunnels Do Not Flood',
    question: 'Thousands of litres of water seep into a subway every minute. Where does it go?',
    lines: [
      'Every minute, groundwater seeps into the tunnels under the city.',
      'Channels along the tracks lead it to sumps at the lowest points.',
      'Pumps lift it back to the surface, day and night, all year.',
      'When a storm comes, floodgates close the entrances within minutes.',
    ],
    moments: ['The sumps', 'The floodgates'],
  },
  {
    title: 'How Pencils Are Made',
    question: 'A pencil is two pieces of wood and a stick of graphite. Making one is harder.',
    lines: [
      'Graphite and clay are mixed, pressed into rods and fired in a kiln.',
      'Cedar is cut into slats and grooved to hold nine leads at once.',
      'A second slat is glued on top, and the sandwich is cut into pencils.',
      'Paint, a ferrule and an eraser finish the job, twelve at a time.',
    ],
    moments: ['Firing the leads', 'The wooden sandwich'],
  },
  {
    title: 'How Wind Turbines Are Built',
    question: 'Each blade is longer than a football pitch. We follow one from mould to sea.',
    lines: [
      'A single blade is longer than a football pitch and weighs thirty tonnes.',
      'It is laid up by hand in a mould, layer after layer of glass fibre.',
      'Resin is drawn through the layers under vacuum and cured overnight.',
      'At sea, a jack-up vessel lifts the blades onto towers in calm weather.',
    ],
    moments: ['Laying up a blade', 'Installing at sea'],
  },
];

/** The sandbox's "now", as the other samples use it. */
const NOW = Date.parse('2026-11-20T18:30:00Z');
const DAY_MS = 86_400_000;

/** A relative time as the site writes it: "3 days ago", "1 month ago". */
export function relativeTime(date: string): string {
  const days = Math.max(0, Math.floor((NOW - Date.parse(`${date}T12:00:00Z`)) / DAY_MS));
  const [count, unit] =
    days < 1
      ? [Math.max(1, Math.round((NOW - Date.parse(`${date}T12:00:00Z`)) / 3_600_000)), 'hour']
      : days < 7
        ? [days, 'day']
        : days < 30
          ? [Math.floor(days / 7), 'week']
          : days < 365
            ? [Math.floor(days / 30), 'month']
            : [Math.floor(days / 365), 'year'];
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

/** "4:05", "1:02:03". */
export function lengthText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export interface SandboxVideo {
  id: string;
  title: string;
  question: string;
  lines: readonly string[];
  moments: readonly string[];
  channel: SandboxChannel;
  lengthSeconds: number;
  views: number;
  likes: number;
  publishedDate: string;
}

/** The video with this id. */
export function sandboxVideo(id: string): SandboxVideo {
  const seed = (what: string) => `video:${id}:${what}`;
  const topic = seededPick(seed('topic'), TOPICS);
  const views = seededMagnitude(seed('views'), 900, 20_000_000_000);
  return {
    id,
    title: topic.title,
    question: topic.question,
    lines: topic.lines,
    moments: topic.moments,
    channel: channelOfVideo(id),
    lengthSeconds: seededInt(seed('length'), 45, 4_200),
    views,
    likes: Math.round(views * (0.005 + 0.04 * seededFraction(seed('likes')))),
    publishedDate: seededDate(seed('published'), '2019-01-01', '2026-11-19'),
  };
}

function channelOfVideo(id: string): SandboxChannel {
  return seededPick(`video:${id}:channel`, SANDBOX_CHANNELS);
}

/** An 11-character video id for `seed`. */
export function videoIdFor(seed: string): string {
  return sampleBase64Url(`video-id:${seed}`, 11);
}

const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .match(/[a-z]{5,}/g)
      ?.map((word) => word.replace(/s$/, '')) ?? [],
  );

/**
 * A video id for `seed` that belongs to `channel`: the first of the seed's candidates that does and,
 * among the first 256, whose title shares a word with `about` when one does (so a search for
 * "how zippers are made" leads with the zipper video).
 */
export function videoIdOf(channel: SandboxChannel, seed: string, about = ''): string {
  const wanted = words(about);
  let owned: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    const id = videoIdFor(`${seed}:${attempt}`);
    if (channelOfVideo(id) !== channel) continue;
    owned ??= id;
    if (wanted.size === 0 || [...words(sandboxVideo(id).title)].some((word) => wanted.has(word))) return id;
    if (attempt >= 256) return owned;
  }
}

/** The `n`th video of a channel page: of one of the sandbox's channels, a video that belongs to it. */
export function channelVideoId(handle: string, n: number): string {
  const own = SANDBOX_CHANNELS.find((channel) => channel.handle === handle);
  return own ? videoIdOf(own, `${handle}:${n}`) : videoIdFor(`${handle}:${n}:0`);
}
