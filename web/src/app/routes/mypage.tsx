import { can, jaMember } from '@enishi/contract';
import { Link } from 'react-router';
import { Profile } from '@/features/mypage/components/profile';
import { PushPanel } from '@/features/push/components/push-panel';
import { useSession } from '@/lib/session';
import { Page } from '@/components/layouts/page';

/** /mypage: スタッフマイページ for staff, マイページ for members (product.md §2), with notifications (product.md §16). */
export default function MypageRoute() {
  const session = useSession();
  if (!session) return null;
  return (
    <Page title={can(session, 'desk.use') ? jaMember.mypage.staffTitle : jaMember.mypage.memberTitle}>
      <Profile session={session}>
        <PushPanel session={session} />
        <Link to="/security" className="page-link">
          {jaMember.security.menu}
        </Link>
      </Profile>
    </Page>
  );
}
