import { useEffect, useState } from 'react';
import { PERSISTED } from './client';
import { CompanyPage } from './pages/CompanyPage';
import { ProfilePage } from './pages/ProfilePage';
import { VideoPage } from './pages/VideoPage';
import { WatchlistPage } from './pages/WatchlistPage';

const PAGES = { company: ['Company', CompanyPage], profile: ['Profile viewer', ProfilePage], video: ['Video', VideoPage], watchlist: ['Watchlist', WatchlistPage] } as const;
type Page = keyof typeof PAGES;

const pageOf = (hash: string): Page => (hash.replace('#/', '') in PAGES ? (hash.replace('#/', '') as Page) : 'company');

export function App() {
  const [page, setPage] = useState<Page>(pageOf(window.location.hash));
  useEffect(() => {
    const onHash = () => setPage(pageOf(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const Current = PAGES[page][1];
  return (
    <>
      <header>
        <h1>Lookup Graph</h1>
        <nav>
          {(Object.keys(PAGES) as Page[]).map((key) => (
            <a key={key} href={`#/${key}`} className={key === page ? 'active' : ''}>{PAGES[key][0]}</a>
          ))}
        </nav>
        <span className="mode" data-testid="mode">{PERSISTED ? 'persisted documents' : 'full documents (dev)'}</span>
      </header>
      <main data-testid={`page-${page}`}>
        <Current />
      </main>
    </>
  );
}
