/** Waits `ms` milliseconds (real time: for an upstream's delay, a TTL or a reset that the test lets pass). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 5 ms until it holds; fails after `timeoutMs` (a generous bound, not a measurement). */
export async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await sleep(5);
  }
}
