import { ja, can } from '@enishi/contract';
import { MemberBanners } from '@/features/home/components/member-banners';
import { HomeMenu } from '@/features/home/components/home-menu';
import { useSession } from '@/lib/session';
import { Page } from '@/components/layouts/page';

/** /: the role-dependent menu; members also see the banners of their group below it. */
export default function HomeRoute() {
  const session = useSession();
  if (!session) return null;
  return (
    <Page title={ja.home.menu} documentTitle={ja.home.title} lead={ja.home.greeting(session.name)}>
      <HomeMenu session={session} />
      {can(session, 'desk.use') ? null : <MemberBanners role={session.role} />}
    </Page>
  );
}
