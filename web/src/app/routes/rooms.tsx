import { isStaffRole, ja } from '@enishi/contract';
import { getSession } from '@/lib/session';
import { useMatches } from 'react-router';
import { RoomList } from '@/features/rooms/components/room-list';
import { Page } from '@/components/layouts/page';
import type { ScreenHandle } from '../screen-handle';

/** The room lists of product.md §2; which rooms comes from the route's handle. */
export default function RoomsRoute() {
  const handle = useMatches()
    .map((match) => match.handle as ScreenHandle | undefined)
    .findLast((candidate) => candidate?.rooms);
  if (!handle?.rooms) return null;
  const session = getSession();
  const title = session && isStaffRole(session.role) && handle.staffTitle ? handle.staffTitle : handle.title;
  return (
    <Page title={title ?? ja.screens.talkrooms}>
      <RoomList key={handle.rooms} type={handle.rooms} />
    </Page>
  );
}
