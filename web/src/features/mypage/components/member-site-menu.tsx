import { MEMBER_SITE_LINKS, type MemberSiteLink, jaMember } from '@enishi/contract';
import { Link } from 'react-router';
import { useClubConfig } from '@/lib/club-config';
import { ChevronRightIcon, ExternalIcon, HandsetIcon, HistoryIcon, NewsIcon } from '@/components/ui/icons';
import './profile.css';

const labels: Record<MemberSiteLink, string> = {
  deposit: jaMember.memberMenu.deposit,
  settings: jaMember.memberMenu.settings,
  points: jaMember.memberMenu.points,
  payment: jaMember.memberMenu.payment,
  purchase: jaMember.memberMenu.purchase,
};

/**
 * The male members' menu of mypage (product.md §2): セッティング履歴 (his setting requests, in the app), the
 * external member-site pages the club configured (each opens in a new tab; one not configured is shown disabled
 * rather than broken) and 緊急連絡 (/contact).
 */
export function MemberSiteMenu() {
  const config = useClubConfig();
  const links = config.data?.memberSiteLinks;
  return (
    <nav aria-label={jaMember.memberMenu.label}>
      <ul className="profile-links" role="list">
        {MEMBER_SITE_LINKS.map((key) => {
          const href = links?.[key];
          // セッティング履歴 is the app's own list of his setting requests (product.md §18.2).
          if (key === 'settings') {
            return (
              <li key={key}>
                <Link to="/setting/history" className="profile-link">
                  <HistoryIcon className="profile-link__icon" />
                  <span className="profile-link__label">{labels[key]}</span>
                  <ChevronRightIcon size={20} className="profile-link__chevron" />
                </Link>
              </li>
            );
          }
          return (
            <li key={key}>
              {href ? (
                <a className="profile-link" href={href} target="_blank" rel="noopener noreferrer">
                  <NewsIcon className="profile-link__icon" />
                  <span className="profile-link__label">{labels[key]}</span>
                  <span className="visually-hidden">（{jaMember.memberMenu.newTab}）</span>
                  <ExternalIcon size={18} className="profile-link__chevron" />
                </a>
              ) : (
                <a className="profile-link profile-link--disabled" role="link" aria-disabled="true">
                  <NewsIcon className="profile-link__icon" />
                  <span className="profile-link__label">{labels[key]}</span>
                  <span className="profile-link__tag">{jaMember.memberMenu.unavailable}</span>
                </a>
              )}
            </li>
          );
        })}
        <li>
          <Link to="/contact" className="profile-link">
            <HandsetIcon className="profile-link__icon profile-link__icon--alert" />
            <span className="profile-link__label">{jaMember.memberMenu.contact}</span>
            <ChevronRightIcon size={20} className="profile-link__chevron" />
          </Link>
        </li>
      </ul>
    </nav>
  );
}
