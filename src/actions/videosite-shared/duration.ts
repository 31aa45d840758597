/**
 * Video lengths arrive as display text ("4:05", "54:47", "1:02:03"). These helpers turn that text
 * into seconds and back; anything else ("LIVE", "SHORTS", "1:2", "") reads as null.
 */

const DURATION = /^(?:(\d{1,3}):([0-5]\d)|(\d{1,4})):([0-5]\d)$/;

/** Seconds of a "m:ss", "mm:ss" or "h:mm:ss" length; null for any other text. */
export function parseDuration(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = DURATION.exec(value.trim());
  if (!match) return null;
  const [, hours, minutesAfterHours, minutesOnly, seconds] = match;
  if (hours !== undefined) return Number(hours) * 3600 + Number(minutesAfterHours) * 60 + Number(seconds);
  return Number(minutesOnly) * 60 + Number(seconds);
}

/** "m:ss" below an hour, "h:mm:ss" from an hour up; null for a negative or non-integer count. */
export function formatDuration(totalSeconds: number | null): string | null {
  if (totalSeconds === null || !Number.isSafeInteger(totalSeconds) || totalSeconds < 0) return null;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
