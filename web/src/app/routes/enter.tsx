import { ja } from '@enishi/contract';
import { useEffect } from 'react';
import { PublicPhrases } from '@/components/ui/public-phrases';
import { ButtonLink } from '@/components/ui/button';
import './enter.css';

/** /enter: the landing for visitors, with the way to each intro page and to login. */
export default function EnterRoute() {
  useEffect(() => {
    document.title = ja.app.name;
  }, []);

  return (
    <div className="enter">
      <header className="enter__hero">
        <div className="enter__crest" aria-hidden="true">
          <span>{ja.app.shortName}</span>
        </div>
        <p className="enter__lead">
          <PublicPhrases text={ja.enter.lead} />
        </p>
        <h1 className="enter__title">
          <PublicPhrases text={ja.enter.title} />
        </h1>
        <span className="enter__rule" aria-hidden="true" />
        <p className="enter__tagline">
          <PublicPhrases text={ja.enter.tagline} />
        </p>
      </header>

      <main id="main" className="enter__actions">
        <ButtonLink to="/intro/male" block className="enter__button">
          {ja.enter.male}
        </ButtonLink>
        <ButtonLink to="/intro/female" variant="rose" block className="enter__button">
          {ja.enter.female}
        </ButtonLink>
        <span className="enter__or" aria-hidden="true" />
        <ButtonLink to="/login" variant="secondary" block className="enter__button">
          {ja.enter.login}
        </ButtonLink>
      </main>

      <footer className="enter__footer">
        <small>{ja.app.copyright}</small>
      </footer>
    </div>
  );
}
