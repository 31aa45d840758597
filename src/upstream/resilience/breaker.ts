import { ActionError } from '../errors.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

/** How one finished call counts for the breaker of its action. */
export type Verdict = 'success' | 'failure' | 'neutral';

export interface BreakerOptions {
  /** Consecutive failures that open the breaker. */
  failureThreshold: number;
  /** How long an open breaker refuses calls before it lets one probe through. */
  cooldownMs: number;
  now?: () => number;
}

export interface BreakerSnapshot {
  state: BreakerState;
  consecutiveFailures: number;
  /** While open: milliseconds until a probe is let through. */
  probeInMs?: number;
}

/** Held by a call the breaker let through; `probe` marks the single half-open trial call. */
export interface BreakerTicket {
  probe: boolean;
}

/**
 * One action's circuit breaker. Closed: calls pass and consecutive failures are counted; at the
 * threshold it opens. Open: calls are refused until the cool-down ends, then one probe passes
 * (half-open) while the others are still refused. The probe's success closes it; its failure
 * opens it for another cool-down; a neutral end (cancelled, rate-limited) frees the probe slot.
 */
export class CircuitBreaker {
  private state: BreakerState = 'closed';
  private failures = 0;
  private openedAt = 0;
  private probing = false;
  private readonly now: () => number;

  constructor(private readonly options: BreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A ticket when the call may go, null when it must fail fast. */
  tryAcquire(): BreakerTicket | null {
    if (this.state === 'closed') return { probe: false };
    if (this.state === 'open') {
      if (this.now() - this.openedAt < this.options.cooldownMs) return null;
      this.state = 'half-open';
    }
    if (this.probing) return null;
    this.probing = true;
    return { probe: true };
  }

  record(ticket: BreakerTicket, verdict: Verdict): void {
    if (ticket.probe) this.probing = false;
    if (verdict === 'neutral') return;
    if (verdict === 'success') {
      this.failures = 0;
      if (ticket.probe || this.state === 'half-open') this.state = 'closed';
      return;
    }
    this.failures += 1;
    if (ticket.probe || this.state === 'half-open' || (this.state === 'closed' && this.failures >= this.options.failureThreshold)) {
      this.state = 'open';
      this.openedAt = this.now();
    }
  }

  snapshot(): BreakerSnapshot {
    if (this.state !== 'open') return { state: this.state, consecutiveFailures: this.failures };
    const probeInMs = Math.max(0, this.options.cooldownMs - (this.now() - this.openedAt));
    return probeInMs === 0
      ? { state: 'half-open', consecutiveFailures: this.failures }
      : { state: 'open', consecutiveFailures: this.failures, probeInMs };
  }
}

/**
 * Outages open the breaker: timeouts and unreachable or failing (5xx) upstreams. Answers that show
 * the upstream alive count as success: bad input, not found, and a rejected token (a configuration
 * problem, not an outage). Rate limits have their own gate, and a cancelled call or a malformed
 * answer to one lookup says nothing about the others: those are neutral.
 */
export function verdictFor(error: unknown, cancelled: boolean): Verdict {
  if (cancelled) return 'neutral';
  if (!(error instanceof ActionError)) return 'failure';
  switch (error.code) {
    case 'UPSTREAM_TIMEOUT':
    case 'UPSTREAM_UNAVAILABLE':
      return 'failure';
    case 'BAD_USER_INPUT':
    case 'NOT_FOUND':
    case 'UNAUTHENTICATED':
      return 'success';
    default:
      return 'neutral';
  }
}

/** A breaker per action, created on first use. */
export class Breakers {
  private readonly byAction = new Map<string, CircuitBreaker>();

  constructor(private readonly options: BreakerOptions) {}

  /** Lets the call through with a ticket, or throws UPSTREAM_UNAVAILABLE at once when the breaker is open. */
  acquire(action: string): BreakerTicket {
    const ticket = this.get(action).tryAcquire();
    if (ticket) return ticket;
    const { probeInMs } = this.get(action).snapshot();
    throw new ActionError(
      'UPSTREAM_UNAVAILABLE',
      `The upstream ${action} action is failing; the gateway is not calling it for now${probeInMs ? ` (next try in ${Math.ceil(probeInMs / 1000)} s)` : ''}`,
      { action },
    );
  }

  record(action: string, ticket: BreakerTicket, verdict: Verdict): void {
    this.get(action).record(ticket, verdict);
  }

  snapshot(): Record<string, BreakerSnapshot> {
    return Object.fromEntries([...this.byAction].map(([action, breaker]) => [action, breaker.snapshot()]));
  }

  private get(action: string): CircuitBreaker {
    let breaker = this.byAction.get(action);
    if (!breaker) {
      breaker = new CircuitBreaker(this.options);
      this.byAction.set(action, breaker);
    }
    return breaker;
  }
}
