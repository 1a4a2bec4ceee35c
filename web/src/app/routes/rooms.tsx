import { ja, jaMember, can } from '@enishi/contract';
import { getSession } from '@/lib/session';
import { Link } from 'react-router';
import { useRouteMatches } from '@/lib/route-matches';
import { RoomList } from '@/features/rooms/components/room-list';
import { useDeskLayout } from '@/components/layouts/app-layout';
import { DeskConsole } from '../desk-console-lazy';
import { SettingRequestsLink } from '@/features/setting/components/setting-requests-link';
import { Page } from '@/components/layouts/page';
import type { ScreenHandle } from '../screen-handle';

/** The room lists of product.md §2; which rooms comes from the route's handle. */
export default function RoomsRoute() {
  const desk = useDeskLayout();
  const handle = useRouteMatches()
    .map((match) => match.handle as ScreenHandle | undefined)
    .findLast((candidate) => candidate?.rooms);
  if (!handle?.rooms) return null;
  const session = getSession();
  const staff = can(session, 'desk.use');
  const title = staff && handle.staffTitle ? handle.staffTitle : handle.title;
  // Staff at a desk get the desk: this list beside the talk to be opened (product.md §2.6).
  if (desk && handle.rooms !== 'sendmen' && handle.rooms !== 'sendwomen') {
    return <DeskConsole conversationId={null} list={handle.rooms} title={title} />;
  }
  return (
    <Page title={title ?? ja.screens.talkrooms}>
      {/* Staff's talk list leads to the setting requests, with their badge (product.md §18). */}
      {staff && handle.rooms === 'st' ? <SettingRequestsLink /> : null}
      <p className="rooms-route__search">
        <Link to="/search" className="page-link">
          {jaMember.desk.search}
        </Link>
      </p>
      <RoomList key={handle.rooms} type={handle.rooms} />
    </Page>
  );
}
