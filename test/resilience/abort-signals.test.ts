import { afterEach, describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';

// A call follows its operation's one signal (or a coalesced call's) with a listener and stops at its
// deadline with a timer: no composite signal is made per call (AbortSignal.any and AbortSignal.timeout
// cost weak references and a dependant on the long-lived signal they follow, for every call).
describe('abort signals on the way upstream', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an operation of uncached lookups makes no AbortSignal.any() or AbortSignal.timeout()', async ({ sandbox: gw }) => {
    const any = vi.spyOn(AbortSignal, 'any');
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const { body } = await gw.query(
      '{ domainInfo(domain: "signals-a.example") { domainName } company(domain: "signals-b.example") { name } financialProfiles(symbols: ["AAPL", "NKE"]) { symbol } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.extensions?.gateway.upstreamCalls).toBe(3);
    expect(any).not.toHaveBeenCalled();
    expect(timeout).not.toHaveBeenCalled();
  });
});
