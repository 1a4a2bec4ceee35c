import { LOOKUPS, ageOn, japanTime, lookupLabel, type ProfileReply, jaMember } from '@enishi/contract';
import { usePartyProfile } from '../api/settings';

/**
 * The facts staff weigh a request by, in one line: for her age, area, height and rank; for him age, area,
 * occupation and height (whatever is known).
 */
export function partyFacts(view: Pick<ProfileReply, 'profile'>, woman: boolean, today: string): string[] {
  const p = view.profile;
  const rank =
    woman && p.women_rank !== null
      ? `${jaMember.women.rank} ${lookupLabel(LOOKUPS.womenRanks, p.women_rank)}`
      : '';
  return [
    p.birth_date ? jaMember.women.age(ageOn(p.birth_date, today)) : '',
    lookupLabel(LOOKUPS.areas, p.area),
    woman ? '' : lookupLabel(LOOKUPS.occupations, p.occupation),
    p.height ? jaMember.women.height(p.height) : '',
    rank,
  ].filter(Boolean);
}

/** A party of a request as staff see it beside the slots: first photo, name and the facts. */
export function PartySummaryView({
  view,
  woman,
  name,
  today = japanTime(new Date()).dateKey,
}: {
  view: Pick<ProfileReply, 'profile' | 'photos'> | undefined;
  woman: boolean;
  name: string;
  today?: string;
}) {
  const who = woman ? jaMember.setting.woman : jaMember.setting.man;
  const photo = view?.photos[0]?.url;
  const facts = view ? partyFacts(view, woman, today) : [];
  // A group, not a region: one person may be in several requests of a list, and landmarks must be unique.
  return (
    <div className="party-summary" role="group" aria-label={jaMember.setting.summaryOf(who, name)}>
      <span className="party-summary__photo">
        {photo ? (
          <img src={photo} alt={jaMember.setting.photoOf(name)} loading="lazy" decoding="async" />
        ) : (
          <span aria-hidden="true">{name.slice(0, 1)}</span>
        )}
      </span>
      <span className="party-summary__text">
        <span className="party-summary__who">{who}</span>
        <span className="party-summary__name">{name}</span>
        <span className="party-summary__facts">
          {view && facts.length === 0 ? jaMember.setting.noSummary : facts.join(' ・ ')}
        </span>
      </span>
    </div>
  );
}

/** Reads the party's profile (staff may read every member's) and shows the summary. */
export function PartySummary({ uid, name, woman }: { uid: number | null; name: string; woman: boolean }) {
  const profile = usePartyProfile(uid);
  return <PartySummaryView view={profile.data} woman={woman} name={name} />;
}
