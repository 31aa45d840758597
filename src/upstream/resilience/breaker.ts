// Own for now: cockatiel's breaker covers most, but not the neutral verdict (a client error neither opens nor closes) kept here.
import { ActionError } from '../../kernel/errors.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

/** How one finished call counts for the breaker of its action. */
export type Verdict = 'success' | 'failure' | 'neutral';

export interface BreakerOptions {
  /** Consecutive failures, of distinct inputs, that open the breaker. */
  failureThreshold: number;
  /** Distinct clients those failures must come from (1: any); see Breakers. */
  minClients?: number;
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
  /** Since the last success: the inputs that failed and the clients they failed for. */
  private readonly failedInputs = new Set<string>();
  private readonly failedClients = new Set<string>();
  private anonymous = 0;
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

  /**
   * `input` and `client` name what failed: the same input failing again does not count again, and
   * with `minClients` the failures must come from that many distinct clients.
   */
  record(
    ticket: BreakerTicket,
    verdict: Verdict,
    input?: string,
    client?: string,
    minClients = this.options.minClients ?? 1,
  ): void {
    if (ticket.probe) this.probing = false;
    if (verdict === 'neutral') return;
    if (verdict === 'success') {
      this.failures = 0;
      this.failedInputs.clear();
      this.failedClients.clear();
      if (ticket.probe || this.state === 'half-open') this.state = 'closed';
      return;
    }
    if (input === undefined) this.anonymous += 1;
    this.failedInputs.add(input ?? `#${this.anonymous}`);
    this.failedClients.add(client ?? '');
    if (this.failedInputs.size > 10_000) this.failedInputs.clear();
    this.failures = this.failedInputs.size;
    const enough = this.failures >= this.options.failureThreshold && this.failedClients.size >= minClients;
    if (ticket.probe || this.state === 'half-open' || (this.state === 'closed' && enough)) {
      this.state = 'open';
      this.openedAt = this.now();
      this.failedInputs.clear();
      this.failedClients.clear();
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

export interface FairBreakerOptions extends BreakerOptions {
  /** How long an input that timed out twice in a row fails fast without a call. */
  failedInputTtlMs: number;
  /** Client-scoped breakers kept at once (least recently used dropped). */
  maxClients?: number;
}

/** What a call is, for the breakers: its action, its input (canonical body) and its client. */
export interface BreakerCall {
  action: string;
  input: string;
  client: string;
  /** The call carries the client's own upstream token (forward mode). */
  clientToken: boolean;
}

export interface FairTicket {
  shared: BreakerTicket;
  own: BreakerTicket;
}

/**
 * Breakers that one client cannot trip for everyone. Per action:
 *  - a shared breaker counts failures of distinct inputs, which must come from at least two
 *    distinct clients whenever more than one client uses the action: an outage seen by several
 *    clients opens it for all, one client's failing inputs never shut out another that is calling;
 *  - a breaker per (action, client) counts that client's failing distinct inputs, so a real outage
 *    seen by a single client still opens fast for it, and only for it. In forward mode a client's
 *    rejected token (401/403) counts there too: the token's failure, not the upstream's;
 *  - one input that keeps hanging (timed out twice in a row) is remembered as failing for
 *    `failedInputTtlMs` and fails fast, instead of holding a slot and counting again and again.
 */
export class Breakers {
  private readonly shared = new Map<string, CircuitBreaker>();
  /** Per action: the clients that called it recently (last call, epoch ms). */
  private readonly recent = new Map<string, Map<string, number>>();
  private readonly perClient = new Map<string, CircuitBreaker>();
  private readonly failedInputs = new Map<string, { failures: number; until: number }>();
  private readonly now: () => number;

  constructor(private readonly options: FairBreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Lets the call through with tickets, or throws at once: UPSTREAM_UNAVAILABLE (open), UPSTREAM_TIMEOUT (a recently failing input). */
  acquire(call: BreakerCall): FairTicket {
    const remembered = this.failedInputs.get(this.inputKey(call));
    if (remembered && remembered.until > this.now()) {
      throw new ActionError(
        'UPSTREAM_TIMEOUT',
        `The upstream ${call.action} action failed for this input moments ago; the gateway retries it in ${Math.ceil((remembered.until - this.now()) / 1000)} s`,
        { action: call.action },
      );
    }
    this.seen(call);
    const shared = this.sharedOf(call.action);
    const own = this.clientOf(call);
    const sharedTicket = shared.tryAcquire();
    if (!sharedTicket) throw openError(call.action, shared.snapshot().probeInMs, false);
    const ownTicket = own.tryAcquire();
    if (!ownTicket) {
      shared.record(sharedTicket, 'neutral');
      throw openError(call.action, own.snapshot().probeInMs, true);
    }
    return { shared: sharedTicket, own: ownTicket };
  }

  record(call: BreakerCall, ticket: FairTicket, verdict: Verdict, error?: unknown): void {
    const tokenRejected = call.clientToken && error instanceof ActionError && error.code === 'UNAUTHENTICATED';
    this.sharedOf(call.action).record(
      ticket.shared,
      verdict,
      call.input,
      call.client,
      this.activeClients(call.action) >= 2 ? 2 : 1,
    );
    this.clientOf(call).record(ticket.own, tokenRejected ? 'failure' : verdict, call.input, call.client);
    const key = this.inputKey(call);
    // Only a hang is remembered: a timeout costs a slot for the whole deadline, an error does not.
    const hung = error instanceof ActionError && error.code === 'UPSTREAM_TIMEOUT';
    if (verdict === 'failure' && hung) {
      const failures = (this.failedInputs.get(key)?.failures ?? 0) + 1;
      if (this.failedInputs.size >= 10_000) this.failedInputs.delete(this.failedInputs.keys().next().value!);
      this.failedInputs.set(key, { failures, until: failures >= 2 ? this.now() + this.options.failedInputTtlMs : 0 });
    } else if (verdict === 'success') {
      this.failedInputs.delete(key);
    }
  }

  /** The shared breakers, per action (what /healthz shows), and how many clients have their own open. */
  snapshot(): Record<string, BreakerSnapshot & { clientsOpen?: number }> {
    const open = new Map<string, number>();
    for (const [key, breaker] of this.perClient) {
      if (breaker.snapshot().state === 'open') {
        const action = key.slice(0, key.indexOf('\u0000'));
        open.set(action, (open.get(action) ?? 0) + 1);
      }
    }
    return Object.fromEntries(
      [...this.shared].map(([action, breaker]) => [
        action,
        { ...breaker.snapshot(), ...(open.get(action) ? { clientsOpen: open.get(action) } : {}) },
      ]),
    );
  }

  private seen(call: BreakerCall): void {
    let clients = this.recent.get(call.action);
    if (!clients) {
      clients = new Map();
      this.recent.set(call.action, clients);
    }
    clients.delete(call.client);
    clients.set(call.client, this.now());
    if (clients.size > 1_000) clients.delete(clients.keys().next().value!);
  }

  /** Clients that called the action within the cool-down (at least 10 s): who an open breaker would shut out. */
  private activeClients(action: string): number {
    const clients = this.recent.get(action);
    if (!clients) return 0;
    const since = this.now() - Math.max(10_000, this.options.cooldownMs);
    for (const [client, at] of clients) {
      if (at >= since) break; // insertion order is recency order
      clients.delete(client);
    }
    return clients.size;
  }

  private inputKey(call: BreakerCall): string {
    return `${call.action}\u0000${call.clientToken ? call.client : ''}\u0000${call.input}`;
  }

  private sharedOf(action: string): CircuitBreaker {
    let breaker = this.shared.get(action);
    if (!breaker) {
      breaker = new CircuitBreaker(this.options);
      this.shared.set(action, breaker);
    }
    return breaker;
  }

  private clientOf(call: BreakerCall): CircuitBreaker {
    const key = `${call.action}\u0000${call.client}`;
    let breaker = this.perClient.get(key);
    if (breaker) {
      this.perClient.delete(key);
    } else {
      breaker = new CircuitBreaker({ ...this.options, minClients: 1 });
      if (this.perClient.size >= (this.options.maxClients ?? 10_000))
        this.perClient.delete(this.perClient.keys().next().value!);
    }
    this.perClient.set(key, breaker);
    return breaker;
  }
}

function openError(action: string, probeInMs: number | undefined, own: boolean): ActionError {
  return new ActionError(
    'UPSTREAM_UNAVAILABLE',
    `The upstream ${action} action is failing${own ? ' for this client' : ''}; the gateway is not calling it for now${probeInMs ? ` (next try in ${Math.ceil(probeInMs / 1000)} s)` : ''}`,
    { action },
  );
}
