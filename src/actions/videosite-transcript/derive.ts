import { date } from '../../schema/read.js';

export interface TranscriptParts {
  /** The first line, trimmed; null when it is empty. */
  title: string | null;
  /** Everything after the first line break, trimmed; empty when the video has no transcript text. */
  text: string;
}

/** The upstream `response` is the video title, a newline, then the transcript text. */
export function splitTranscript(response: string): TranscriptParts {
  const match = /\r?\n/.exec(response);
  const head = match ? response.slice(0, match.index) : response;
  const rest = match ? response.slice(match.index + match[0].length) : '';
  const title = head.trim();
  return { title: title === '' ? null : title, text: rest.trim() };
}

/** The calendar date of a "YYYY-MM-DD" or RFC 3339 publish time; null for other text. */
export function publishedDate(value: unknown): string | null {
  return date(value); // "YYYY-MM-DD", RFC 3339 or zone-less timestamps, "Mar 26, 2024" (src/schema/dates.ts)
}
