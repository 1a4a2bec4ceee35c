import { type BannerRow, jaMember } from '@enishi/contract';
import type { RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import type { BannerChanges } from '../api/apply-banner-changes';

/** The confirm step of /managead (product.md §2, §4): the banner to add and those to delete, then 実行 or back. */
export function BannerConfirm({
  changes,
  removing,
  headingRef,
  busy,
  onBack,
  onRun,
}: {
  changes: BannerChanges;
  removing: BannerRow[];
  headingRef: RefObject<HTMLHeadingElement | null>;
  busy: boolean;
  onBack: () => void;
  onRun: () => void;
}) {
  return (
    <div className="banner-confirm">
      <h3 ref={headingRef} tabIndex={-1} className="banner-section__subtitle">
        {jaMember.banners.confirmTitle}
      </h3>
      {changes.add ? (
        <div className="banner-confirm__group">
          <p className="banner-confirm__label">
            <Phrases text={jaMember.banners.toAdd} />
          </p>
          <img src={changes.add.image} alt={jaMember.banners.toAdd} className="banner-section__image" />
          <p className="banner-section__url">{changes.add.url}</p>
        </div>
      ) : null}
      {removing.length > 0 ? (
        <div className="banner-confirm__group">
          <p className="banner-confirm__label">
            <Phrases text={jaMember.banners.toDelete} />
          </p>
          <ul className="banner-section__list" role="list">
            {removing.map((row) => (
              <li key={row.id} className="banner-section__item">
                <img src={row.image} alt={jaMember.banners.toDelete} className="banner-section__image" />
                <p className="banner-section__url">{row.url}</p>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="banner-confirm__actions">
        <Button variant="quiet" onClick={onBack} disabled={busy}>
          {jaMember.banners.back}
        </Button>
        <Button onClick={onRun} busy={busy} disabled={busy}>
          {jaMember.banners.run}
        </Button>
      </div>
    </div>
  );
}
