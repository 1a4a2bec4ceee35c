import {
  LOOKUPS,
  PROFILE_FIELDS,
  WOMAN_PUBLIC_FIELDS,
  ja,
  jaProfile,
  lookupLabel,
  type EntryDetailReply,
  type LookupItem,
  type WomanPublicField,
  jaMember,
} from '@enishi/contract';
import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/api-client';
import { Spinner } from '@/components/ui/spinner';
import { useWoman } from '../api/women';
import { FavoriteStar } from './favorite-star';
import { womanFacts } from './woman-card';
import { WomanPhotos } from './woman-photos';
import './women.css';
import { Phrases } from '@/components/ui/phrases';

/** A profile value as people read it: the label of a code (several joined), a number (its label names the unit), the text. */
function shown(field: WomanPublicField, value: EntryDetailReply['profile'][string]): string {
  if (value === null || value === undefined || value === '') return '';
  const spec = PROFILE_FIELDS[field];
  if (spec.kind === 'code' || spec.kind === 'codes') {
    const table = (LOOKUPS as Record<string, readonly LookupItem[] | undefined>)[spec.lookup] ?? [];
    const codes = Array.isArray(value) ? value : [value as number];
    return codes
      .map((code) => lookupLabel(table, code))
      .filter(Boolean)
      .join('、');
  }
  if (field === 'height' || field === 'bust' || field === 'waist' || field === 'hip')
    return `${String(value)}cm`;
  return String(value);
}

/**
 * One woman's profile (product.md §19.3): photos, name, age, area, height, rank, the star, her public fields;
 * `children` (the setting request) last, kept in view by a bar at the foot of the screen.
 */
export function WomanDetail({ id, children }: { id: number; children?: ReactNode }) {
  const woman = useWoman(id);
  if (woman.isPending) return <Spinner label={ja.app.loading} />;
  if (woman.isError) {
    return (
      <p className="notice-box" role="alert">
        <Phrases text={errorMessage(woman.error)} />
      </p>
    );
  }
  const data = woman.data;
  const rows = WOMAN_PUBLIC_FIELDS.map(
    (field) => [field, shown(field, data.profile[field] ?? null)] as const,
  ).filter(([field, text]) => text && field !== 'pr');
  const pr = typeof data.profile.pr === 'string' ? data.profile.pr : '';
  return (
    <article className="woman-detail">
      <WomanPhotos name={data.name} photos={data.photos} />
      <header className="woman-detail__head paper-card">
        <div>
          <h2 className="woman-detail__name">{data.name}</h2>
          <p className="woman-detail__facts">{womanFacts(data)}</p>
          {lookupLabel(LOOKUPS.womenRanks, data.women_rank) ? (
            <p className="woman-detail__rank">
              {jaMember.women.rank} <strong>{lookupLabel(LOOKUPS.womenRanks, data.women_rank)}</strong>
            </p>
          ) : null}
        </div>
        <FavoriteStar id={data.id} name={data.name} on={data.favorite} />
      </header>
      {pr ? <p className="woman-detail__pr paper-card">{pr}</p> : null}
      <dl className="woman-detail__profile paper-card">
        {rows.map(([field, text]) => (
          <div key={field} className="woman-detail__row">
            <dt>{jaProfile.fields[field]}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
      {/* Last, as a bar that stays at the foot of the screen while the profile scrolls (women.css). */}
      {children}
    </article>
  );
}
