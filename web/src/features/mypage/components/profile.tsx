import { ja, jaMember, can, ROLE_TRAITS } from '@enishi/contract';
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

/** The user's icon, name and role, the button to change the image (for those who may), and a man's rank. */
function ProfileCard({ session }: { session: Session }) {
  return (
    <section className="profile-card">
      <UserIcon name={session.name} role={session.role} image={session.image} size="lg" />
      <p className="profile-card__name">{session.name}</p>
      <p className="profile-card__role">
        <Phrases text={ja.roles[session.role] ?? ''} />
      </p>
      {can(session, 'user.image.upload', { uid: session.uid }) ? (
        <ProfileImageButton session={session} />
      ) : null}
      {ROLE_TRAITS[session.role]?.ranked && ja.ranks[session.rank] ? (
        <p className="profile-card__rank">
          <span className="visually-hidden">{jaMember.mypage.rank}</span>
          <RankPill rank={session.rank} size="lg" />
        </p>
      ) : null}
    </section>
  );
}

/** A link to a page of one's own (profile, course, setting history), as a row with a chevron. */
function ProfileLink({ to, icon, label }: { to: string; icon: ReactNode; label: string }) {
  return (
    <ul className="profile-links" role="list">
      <li>
        <Link to={to} className="profile-link">
          {icon}
          <span className="profile-link__label">{label}</span>
          <ChevronRightIcon size={20} className="profile-link__chevron" />
        </Link>
      </li>
    </ul>
  );
}

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

  // A member's own profile (never staff's); the member site's menu carries a man's setting history.
  const member = can(session, 'member.profile.read', { uid: session.uid, role: session.role });
  const memberSite = can(session, 'member_site.open');

  return (
    <div className="profile">
      <ProfileCard session={session} />

      {member ? (
        <ProfileLink
          to="/mypage/profile"
          icon={<UserEditIcon className="profile-link__icon" />}
          label={jaMember.profile.own.title}
        />
      ) : null}

      {memberSite ? (
        <ProfileLink
          to="/course"
          icon={<CourseIcon className="profile-link__icon" />}
          label={jaMember.mypage.course}
        />
      ) : null}

      {memberSite ? <MemberSiteMenu /> : null}

      {member && !memberSite ? (
        <ProfileLink
          to="/setting/history"
          icon={<HistoryIcon className="profile-link__icon" />}
          label={jaMember.setting.history}
        />
      ) : null}

      {children}

      <DevicesCard />

      <LogoutButton />
    </div>
  );
}
