import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { CompanyPageDocument } from '../gql/graphql';
import { codedErrors, errorsAt, ErrorList, ErrorNote } from '../components/Errors';
import { Usage } from '../components/Usage';

/** "hubspot.com", "https://www.hubspot.com/pricing", "HubSpot.com." → "hubspot.com". */
export function domainOf(input: string): string {
  const text = input.trim();
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    return url.hostname.replace(/^www\./, '').replace(/\.$/, '').toLowerCase();
  } catch {
    return text.toLowerCase();
  }
}

const money = (n: number | null | undefined, currency = 'USD') =>
  n == null ? '—' : new Intl.NumberFormat('en-US', { style: 'currency', currency, notation: n >= 1e6 ? 'compact' : 'standard', maximumFractionDigits: 2 }).format(n);

export function CompanyPage() {
  const [input, setInput] = useState('hubspot.com');
  const [domain, setDomain] = useState('hubspot.com');
  const [result, reexecute] = useQuery({ query: CompanyPageDocument, variables: { domain }, requestPolicy: 'network-only' });
  const errors = codedErrors(result.error);
  const company = result.data?.company;
  const stockErrors = errorsAt(errors, 'company', 'financialProfile');
  const domainErrors = errorsAt(errors, 'company', 'domainInfo');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDomain(domainOf(input));
  };
  return (
    <div>
      <form onSubmit={submit} className="search">
        <label>
          Company domain or URL <input value={input} onChange={(e) => setInput(e.target.value)} name="domain" />
        </label>
        <button type="submit">Look up</button>
      </form>
      {result.fetching && !company && <p className="muted">Loading…</p>}
      <ErrorList errors={errors} except={[...stockErrors, ...domainErrors]} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />
      {company && (
        <div className="grid" data-testid="company">
          <section className="card">
            <h2>
              {company.logoUrl && <img src={company.logoUrl} alt="" className="logo" onError={(e) => (e.currentTarget.style.display = 'none')} />}
              {company.name} <span className="muted">{company.domain}</span>
            </h2>
            <p>{company.description}</p>
            <dl>
              <dt>Legal name</dt><dd>{company.legalName ?? '—'}</dd>
              <dt>Sector</dt><dd>{[company.category?.sector, company.category?.industry].filter(Boolean).join(' · ') || '—'}</dd>
              <dt>Founded</dt><dd>{company.foundedYear ?? '—'}</dd>
              <dt>Location</dt><dd>{company.location ?? '—'}</dd>
              <dt>Employees</dt><dd>{company.metrics?.employees?.toLocaleString('en-US') ?? company.metrics?.employeesRange ?? '—'}</dd>
              <dt>Revenue</dt><dd>{money(company.metrics?.annualRevenue)}</dd>
            </dl>
            <p className="tags">{company.tags.map((t) => <span key={t}>{t}</span>)}</p>
          </section>
          <section className="card" data-testid="stock">
            <h3>Stock {company.ticker && <span className="muted">{company.ticker}</span>}</h3>
            {stockErrors.map((e, i) => <ErrorNote key={i} error={e} />)}
            {company.financialProfile ? (
              <dl>
                <dt>Price</dt>
                <dd>
                  {money(company.financialProfile.price, company.financialProfile.currency ?? 'USD')}{' '}
                  <span className={(company.financialProfile.change ?? 0) >= 0 ? 'up' : 'down'}>
                    {(company.financialProfile.change ?? 0) >= 0 ? '+' : ''}{company.financialProfile.change}
                  </span>
                </dd>
                <dt>52-week range</dt><dd>{company.financialProfile.priceRange ? `${company.financialProfile.priceRange.low} – ${company.financialProfile.priceRange.high}` : '—'}</dd>
                <dt>Market cap</dt><dd>{money(company.financialProfile.marketCap)}</dd>
                <dt>Exchange</dt><dd>{company.financialProfile.exchangeShortName ?? '—'}</dd>
              </dl>
            ) : stockErrors.length === 0 && <p className="muted">No listed stock.</p>}
          </section>
          <section className="card" data-testid="domain-record">
            <h3>Domain record</h3>
            {domainErrors.map((e, i) => <ErrorNote key={i} error={e} />)}
            {company.domainInfo && (
              <dl>
                <dt>Domain</dt><dd>{company.domainInfo.domainName}</dd>
                <dt>Registered</dt><dd>{company.domainInfo.isRegistered ? 'yes' : 'no'}</dd>
                <dt>Registrar</dt><dd>{company.domainInfo.registrar?.name ?? '—'}</dd>
                <dt>Created</dt><dd>{company.domainInfo.createdOn ?? '—'}</dd>
                <dt>Expires</dt><dd>{company.domainInfo.expiresOn ?? '—'}</dd>
                <dt>Name servers</dt><dd>{company.domainInfo.nameServers.join(', ') || '—'}</dd>
              </dl>
            )}
          </section>
        </div>
      )}
      {result.data && !company && errors.length === 0 && <p>No company for {domain}.</p>}
      <Usage extensions={result.extensions} />
    </div>
  );
}
