import { jaMember } from '@enishi/contract';
import { ApplicationsInbox } from '@/features/applications/components/applications-inbox';
import { ClubLists } from '@/features/members/components/club-lists';
import { Page } from '@/components/layouts/page';

/* The applications inbox (staff) and the club's own code lists (the owner): product.md §11.6, §19.1. */

/** /applications: applications from the intro pages. */
export function ApplicationsScreen() {
  return (
    <Page title={jaMember.profile.applications.title}>
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
