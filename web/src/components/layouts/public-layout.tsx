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
          {/* Named by what it shows, then where it leads (axe label-content-name-mismatch). */}
          <Link to="/enter" className="public-header__brand">
            <span className="public-header__mark">{ja.app.shortName}</span>
            <span className="public-header__latin">{ja.app.latinName}</span>
            <span className="visually-hidden"> {ja.app.toTop}</span>
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
