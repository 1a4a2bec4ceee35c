import { ja } from '@enishi/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import './public-layout.css';

/** Screens for visitors (login, intro pages): the brand, the screen, and a quiet footer. */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="public-shell">
      <header className="public-header">
        <div className="public-header__inner">
          <Link to="/enter" className="public-header__brand" aria-label={ja.app.toTop}>
            <span className="public-header__mark" aria-hidden="true">
              {ja.app.shortName}
            </span>
            <span className="public-header__latin" aria-hidden="true">
              {ja.app.latinName}
            </span>
          </Link>
        </div>
      </header>
      <main id="main" className="public-main">
        {children}
      </main>
      <footer className="public-footer">
        <small>{ja.app.copyright}</small>
      </footer>
    </div>
  );
}
