import { ja, jaMember } from '@enishi/contract';
import { Link, useLocation } from 'react-router';
import { useClubConfig } from '@/lib/club-config';
import { WomenList } from '@/features/women/components/women-list';
import { MemberSite } from '@/features/member-site/components/member-site';
import { Spinner } from '@/components/ui/spinner';
import { cx } from '@/components/ui/class-names';
import { Page } from '@/components/layouts/page';

/** The member site and the women's list side by side as tabs, when the club has a member site. */
function MemberTabs({ site }: { site: boolean }) {
  return (
    <nav className="women__tabs member-tabs" aria-label={jaMember.memberSite.tabs}>
      <Link
        to="/member"
        className={cx('women__tab', site && 'women__tab--on')}
        aria-current={site ? 'page' : undefined}
      >
        {jaMember.women.frameTitle}
      </Link>
      <Link
        to="/member/women"
        className={cx('women__tab', !site && 'women__tab--on')}
        aria-current={!site ? 'page' : undefined}
      >
        {jaMember.women.title}
      </Link>
    </nav>
  );
}

/**
 * /member and /member/women (role 101, product.md §2.1, §19.8): the women's list with its favourites tab and
 * the setting requests it leads to. When the club configured a member site (MEMBER_SITE_URL; the CSP lets
 * that origin alone be framed and posted to), /member opens it logged in (§19.9) and the list is the tab
 * beside it, /member/women; without one, both addresses show the list.
 */
export default function MemberRoute() {
  const config = useClubConfig();
  const onList = useLocation().pathname === '/member/women';
  if (config.isPending) return <Spinner label={ja.app.loading} />;
  const site = config.data?.memberSiteUrl;
  const base = site ? '/member/women' : '/member';
  return (
    // Titled as the footer's tab that opens it (会員サイト), unless the 女性一覧 tab beside the site was chosen.
    <Page title={site && onList ? jaMember.women.title : ja.screens.member}>
      {site ? <MemberTabs site={!onList} /> : null}
      {site && !onList ? <MemberSite url={site} /> : <WomenList base={base} />}
    </Page>
  );
}
