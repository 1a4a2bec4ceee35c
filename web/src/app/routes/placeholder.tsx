import { ja } from '@enishi/contract';
import { useMatches } from 'react-router';
import { Page } from '@/components/layouts/page';
import { ButtonLink } from '@/components/ui/button';
import { HourglassIcon } from '@/components/ui/icons';
import type { ScreenHandle } from '../screen-handle';
import './placeholder.css';

/** A screen that a later issue builds: its title and a calm note. */
export default function PlaceholderRoute() {
  const title =
    useMatches()
      .map((match) => (match.handle as ScreenHandle | undefined)?.title)
      .findLast(Boolean) ?? ja.app.name;
  return (
    <Page title={title}>
      <section className="notice-box placeholder">
        <HourglassIcon size={32} className="placeholder__icon" />
        <p className="placeholder__text">{ja.app.placeholder}</p>
        <ButtonLink to="/" variant="secondary">
          {ja.app.toHome}
        </ButtonLink>
      </section>
    </Page>
  );
}
