import { ja } from '@enishi/contract';
import { useMatches } from 'react-router';
import { RoomList } from '@/features/rooms/components/room-list';
import { Page } from '@/components/layouts/page';
import type { ScreenHandle } from '../screen-handle';

/** The room lists of SPEC §2; which rooms comes from the route's handle. */
export default function RoomsRoute() {
  const handle = useMatches()
    .map((match) => match.handle as ScreenHandle | undefined)
    .findLast((candidate) => candidate?.rooms);
  if (!handle?.rooms) return null;
  return (
    <Page title={handle.title ?? ja.screens.talkrooms}>
      <RoomList key={handle.rooms} type={handle.rooms} />
    </Page>
  );
}
