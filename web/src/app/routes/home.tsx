import { ja, isStaffRole } from '@enishi/contract';
import { BannerArea } from '@/features/home/components/banner-area';
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
      {isStaffRole(session.role) ? null : <BannerArea banners={[]} />}
    </Page>
  );
}
