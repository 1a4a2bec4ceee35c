import { ja, jaMember } from '@enishi/contract';
import { useClubConfig } from '@/lib/club-config';
import { WomenList } from '@/features/women/components/women-list';
import { Spinner } from '@/components/ui/spinner';
import { Page } from '@/components/layouts/page';

/**
 * /member (role 101, product.md §2.1): the external member site in a frame when the club configured one
 * (MEMBER_SITE_URL; the CSP lets that origin alone be framed), otherwise the women's list (product.md §19).
 */
export default function MemberRoute() {
  const config = useClubConfig();
  if (config.isPending) return <Spinner label={ja.app.loading} />;
  const site = config.data?.memberSiteUrl;
  if (site) {
    return (
      <Page title={ja.screens.member}>
        <iframe
          className="member-frame"
          src={site}
          title={jaMember.women.frameTitle}
          referrerPolicy="no-referrer"
        />
      </Page>
    );
  }
  return (
    <Page title={jaMember.women.title}>
      <WomenList />
    </Page>
  );
}
