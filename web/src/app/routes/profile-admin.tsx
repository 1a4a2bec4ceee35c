import { ja, jaMember } from '@enishi/contract';
import { ApplicationsInbox } from '@/features/applications/components/applications-inbox';
import { ClubLists } from '@/features/members/components/club-lists';
import { EditableFields } from '@/features/members/components/editable-fields';
import { OwnProfile } from '@/features/members/components/own-profile';
import { useSession } from '@/lib/session';
import { Page } from '@/components/layouts/page';

/* The applications inbox (staff) and the club's own code lists (the owner): product.md §11.6, §19.1. */

/** /applications: applications from the intro pages. */
export function ApplicationsScreen() {
  return (
    <Page title={ja.menu.applications}>
      <ApplicationsInbox />
    </Page>
  );
}

/** /staff/lists: companies, media and charge staff. */
export function ClubListsScreen() {
  return (
    <Page title={jaMember.profile.lookups.title}>
      <ClubLists />
    </Page>
  );
}

/** /staff/profile-fields: which fields members may change on their own profile (product.md §19.10). */
export function EditableFieldsScreen() {
  return (
    <Page title={jaMember.profile.editable.title}>
      <EditableFields />
    </Page>
  );
}

/** /mypage/profile (members): what the club recorded, with photos; editable where the owner allows. */
export function OwnProfileScreen() {
  const session = useSession();
  if (!session) return null;
  return (
    <Page title={jaMember.profile.own.title}>
      <OwnProfile uid={session.uid} />
    </Page>
  );
}
