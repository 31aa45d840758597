import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { WatchlistDocument } from '../gql/graphql';
import { codedErrors, errorsAt, ErrorList, ErrorNote } from '../components/Errors';

/** "aapl, HUBS  nke" → ["AAPL", "HUBS", "NKE"]: upper case, no repeats, at most 20. */
function symbolsOf(input: string): string[] {
  return [...new Set(input.split(/[\s,;]+/).map((s) => s.trim().toUpperCase()).filter(Boolean))].slice(0, 20);
}

interface LiveExtensions {
  live?: { changed?: { action: string; key: string }[]; next?: { action: string; key: string; refreshAt: string }[] };
}

/** A price as it was last shown: its value, which way it last moved, and when. */
interface Tick {
  price: number;
  move: 'up' | 'down' | null;
  at: Date;
}

const money = (n: number | null | undefined, currency = 'USD') =>
  n == null ? '—' : new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 2 }).format(n);
const clock = (d: Date) => d.toLocaleTimeString('en-US', { hour12: false });

export function WatchlistPage() {
  const [input, setInput] = useState('AAPL, HUBS, NKE');
  const [symbols, setSymbols] = useState(() => symbolsOf('AAPL, HUBS, NKE'));
  // The query is @live: urql's fetch exchange reads the event stream, and each pushed result arrives here
  // as a new `result`, without a request of its own. Unmounting (or new symbols) closes the stream.
  const [result, reopen] = useQuery({ query: WatchlistDocument, variables: { symbols }, requestPolicy: 'network-only' });
  const errors = codedErrors(result.error);
  const profiles = result.data?.financialProfiles;

  const [ticks, setTicks] = useState<Map<string, Tick>>(new Map());
  const [updates, setUpdates] = useState(0);
  useEffect(() => {
    if (!profiles) return;
    setUpdates((n) => n + 1);
    setTicks((before) => {
      const now = new Date();
      const after = new Map<string, Tick>();
      for (const profile of profiles) {
        if (!profile || profile.price == null) continue;
        const last = before.get(profile.symbol);
        if (last && last.price === profile.price) after.set(profile.symbol, last);
        else after.set(profile.symbol, { price: profile.price, move: last ? (profile.price > last.price ? 'up' : 'down') : null, at: now });
      }
      return after;
    });
  }, [profiles]);
  useEffect(() => {
    setTicks(new Map());
    setUpdates(0);
  }, [symbols]);

  // A replica going away ends the stream with SHUTTING_DOWN: open it again (another replica answers).
  const shuttingDown = errors.some((e) => e.code === 'SHUTTING_DOWN');
  useEffect(() => {
    if (!shuttingDown) return;
    const timer = setTimeout(() => reopen({ requestPolicy: 'network-only' }), 1000);
    return () => clearTimeout(timer);
  }, [shuttingDown, reopen]);

  const nextRefresh = useMemo(() => {
    const next = (result.extensions?.gateway as LiveExtensions | undefined)?.live?.next ?? [];
    const times = next.map((n) => Date.parse(n.refreshAt)).filter(Number.isFinite);
    return times.length ? new Date(Math.min(...times)) : null;
  }, [result.extensions]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = symbolsOf(input);
    if (wanted.length) setSymbols(wanted);
  };
  const inline = profiles ? profiles.flatMap((_, i) => errorsAt(errors, 'financialProfiles', i)) : [];
  const status = result.error?.networkError || shuttingDown ? 'reconnecting' : profiles ? 'live' : 'connecting';
  return (
    <div>
      <form onSubmit={submit} className="search">
        <label>
          Symbols <input value={input} onChange={(e) => setInput(e.target.value)} name="symbols" />
        </label>
        <button type="submit">Watch</button>
      </form>
      <ErrorList errors={errors} except={inline} onRetry={() => reopen({ requestPolicy: 'network-only' })} />
      <section className="card" data-testid="watchlist">
        <h3>
          Watchlist{' '}
          <span className={`live-status ${status}`} data-testid="live-status">
            {status === 'live' ? '● live' : status === 'connecting' ? 'connecting…' : 'reconnecting…'}
          </span>
        </h3>
        <p className="muted">
          Prices update by themselves as the gateway pushes them: <span data-testid="updates">{updates}</span> update(s) received
          {nextRefresh && <> · next refresh at {clock(nextRefresh)}</>}
        </p>
        {profiles && (
          <table className="quotes">
            <thead>
              <tr><th>Symbol</th><th>Company</th><th>Price</th><th>Day change</th><th>Updated</th></tr>
            </thead>
            <tbody>
              {profiles.map((profile, i) => {
                const symbol = profile?.symbol ?? symbols[i] ?? '';
                const tick = ticks.get(symbol);
                const missing = errorsAt(errors, 'financialProfiles', i);
                return (
                  <tr key={symbol} data-symbol={symbol}>
                    <td><strong>{symbol}</strong> <span className="muted">{profile?.exchangeShortName}</span></td>
                    {profile ? (
                      <>
                        <td>{profile.companyName ?? '—'}</td>
                        <td>
                          {/* A new key on each move replays the flash. */}
                          <span key={tick?.at.getTime()} className={`price ${tick?.move ?? ''}`} data-testid="live-price">
                            {money(profile.price, profile.currency ?? 'USD')}
                            {tick?.move && <span aria-label={`moved ${tick.move}`}>{tick.move === 'up' ? ' ▲' : ' ▼'}</span>}
                          </span>
                        </td>
                        <td className={(profile.change ?? 0) >= 0 ? 'up' : 'down'}>
                          {(profile.change ?? 0) >= 0 ? '+' : ''}{profile.change ?? '—'}
                        </td>
                        <td className="muted">{tick ? clock(tick.at) : '—'}</td>
                      </>
                    ) : (
                      <td colSpan={4}>{missing.map((e, j) => <ErrorNote key={j} error={e} />)}</td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {result.fetching && !profiles && <p className="muted">Loading…</p>}
      </section>
    </div>
  );
}
