interface Lookup {
  action: string;
  key: string;
  source: string;
}
interface GatewayExtensions {
  upstreamCalls?: number;
  cost?: { estimated: number; budget: number };
  lookups?: Lookup[];
  sandbox?: boolean;
}

/** What the operation cost, from extensions.gateway. */
export function Usage({ extensions }: { extensions: Record<string, unknown> | undefined }) {
  const gateway = extensions?.gateway as GatewayExtensions | undefined;
  if (!gateway) return null;
  return (
    <section className="usage" data-testid="usage">
      <h3>What this request cost</h3>
      <p>
        <strong data-testid="upstream-calls">{gateway.upstreamCalls ?? 0}</strong> upstream call(s)
        {gateway.cost ? ` · estimated ${gateway.cost.estimated} of a budget of ${gateway.cost.budget}` : ''}
        {gateway.sandbox ? ' · sandbox' : ''}
      </p>
      {gateway.lookups && gateway.lookups.length > 0 && (
        <table>
          <thead>
            <tr><th>Action</th><th>Key</th><th>Source</th></tr>
          </thead>
          <tbody>
            {gateway.lookups.map((l, i) => (
              <tr key={i}><td>{l.action}</td><td>{l.key}</td><td>{l.source}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
