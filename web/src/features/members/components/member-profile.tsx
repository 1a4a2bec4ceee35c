import { ja, type Lookups, jaMember } from '@enishi/contract';
import { errorMessage } from '@/lib/api-client';
import { Spinner } from '@/components/ui/spinner';
import { useLookups } from '../api/lookups';
import { useProfile } from '../api/profile';
import { ProfileForm } from './profile-form';
import { ProfileHistory } from './profile-history';
import { ProfilePhotos } from './profile-photos';
import './profiles.css';
import { Phrases } from '@/components/ui/phrases';

/** Under the member form on /men/edit and /women/edit: photos, the grouped profile and the rank history. */
export function MemberProfile({ uid }: { uid: number }) {
  const profile = useProfile(uid);
  const lookups = useLookups();
  if (profile.isPending || lookups.isPending) return <Spinner label={ja.app.loading} />;
  if (profile.isError || lookups.isError) {
    return (
      <p className="notice-box" role="alert">
        <Phrases text={profile.isError ? errorMessage(profile.error) : jaMember.profile.loadFailed} />
      </p>
    );
  }
  const data = profile.data;
  return (
    <section className="member-profile" aria-labelledby="member-profile-title">
      <h2 id="member-profile-title" className="member-profile__title">
        {jaMember.profile.title}
      </h2>
      <ProfilePhotos uid={uid} name={data.name} photos={data.photos} />
      <ProfileForm uid={uid} role={data.role} stored={data.profile} lookups={lookups.data as Lookups} />
      <ProfileHistory rows={data.history} lookups={lookups.data as Lookups} />
    </section>
  );
}
