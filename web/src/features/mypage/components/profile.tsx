import { ja, jaMember, can, roleGroup } from '@enishi/contract';
import { useEffect, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { forgetUser, tellServerLogout } from '@/lib/auth';
import { updateSession, type Session } from '@/lib/session';
import { LogoutButton } from '@/components/logout-button';
import { ChevronRightIcon, CourseIcon, HistoryIcon, UserEditIcon } from '@/components/ui/icons';
import { RankPill } from '@/components/ui/rank-pill';
import { UserIcon } from '@/components/ui/user-icon';
import { useUser } from '../api/get-user';
import { DevicesCard } from './devices-card';
import { MemberSiteMenu } from './member-site-menu';
import { ProfileImageButton } from './profile-image-button';
import './profile.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * Mypage (product.md §2, §4): the user record is loaded and name, rank and image refreshed; a user the server no
 * longer knows is logged out. `children` (the notifications panel) come before logout.
 */
export function Profile({ session, children }: { session: Session; children?: ReactNode }) {
  const navigate = useNavigate();
  const user = useUser(session.uid);
  const row = user.data?.rows[0];
  const gone = (user.isSuccess && !row) || (user.error instanceof ApiError && user.error.status === 404);

  useEffect(() => {
    if (row) updateSession({ name: row.name, rank: row.rank, image: row.image ?? row.user_image ?? null });
  }, [row]);

  useEffect(() => {
    if (!gone) return;
    void (async () => {
      await tellServerLogout();
      await navigate('/enter', { replace: true });
      forgetUser();
    })();
  }, [gone, navigate]);

  return (
    <div className="profile">
      <section className="profile-card">
        <UserIcon name={session.name} role={session.role} image={session.image} size="lg" />
        <p className="profile-card__name">{session.name}</p>
        <p className="profile-card__role">
          <Phrases text={ja.roles[session.role] ?? ''} />
        </p>
        {can(session, 'user.image.upload', { uid: session.uid }) ? (
          <ProfileImageButton session={session} />
        ) : null}
        {roleGroup(session.role) === 'men' && ja.ranks[session.rank] ? (
          <p className="profile-card__rank">
            <span className="visually-hidden">{jaMember.mypage.rank}</span>
            <RankPill rank={session.rank} size="lg" />
          </p>
        ) : null}
      </section>

      {roleGroup(session.role) === 'men' || roleGroup(session.role) === 'women' ? (
        <ul className="profile-links" role="list">
          <li>
            <Link to="/mypage/profile" className="profile-link">
              <UserEditIcon className="profile-link__icon" />
              <span className="profile-link__label">{jaMember.profile.own.title}</span>
              <ChevronRightIcon size={20} className="profile-link__chevron" />
            </Link>
          </li>
        </ul>
      ) : null}

      {roleGroup(session.role) === 'men' ? (
        <ul className="profile-links" role="list">
          <li>
            <Link to="/course" className="profile-link">
              <CourseIcon className="profile-link__icon" />
              <span className="profile-link__label">{jaMember.mypage.course}</span>
              <ChevronRightIcon size={20} className="profile-link__chevron" />
            </Link>
          </li>
        </ul>
      ) : null}

      {can(session, 'member_site.open') ? <MemberSiteMenu /> : null}

      {roleGroup(session.role) === 'women' ? (
        <ul className="profile-links" role="list">
          <li>
            <Link to="/setting/history" className="profile-link">
              <HistoryIcon className="profile-link__icon" />
              <span className="profile-link__label">{jaMember.setting.history}</span>
              <ChevronRightIcon size={20} className="profile-link__chevron" />
            </Link>
          </li>
        </ul>
      ) : null}

      {children}

      <DevicesCard />

      <LogoutButton />
    </div>
  );
}
