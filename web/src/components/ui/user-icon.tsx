import { ja, type ConversationType, ROLE_TRAITS } from '@enishi/contract';
import { useState } from 'react';
import { cx } from './class-names';
import './user-icon.css';

/** The first two characters of a name (whole characters, not UTF-16 halves). */
export const initials = (name: string): string => Array.from(name.trim()).slice(0, 2).join('');

/** `club`: the club's mark (縁 in gold on navy, as the app icon), for the staff desk and staff rooms. */
export type IconTone = 'staff' | 'men' | 'women' | 'group' | 'club';

/** A person's look by the kind of their role (men's navy for a role the club does not use). */
export const toneOf = (role: number): IconTone => ROLE_TRAITS[role]?.kind ?? 'men';

/** A talk's icon look where it is not one person's: a group talk, or the staff desk (the club's mark). */
export function talkTone(type: ConversationType): IconTone | undefined {
  if (type === 'st') return 'group';
  if (type === 'staff') return 'club';
  return undefined;
}

type UserIconProps = {
  name: string;
  role: number;
  image?: string | null;
  size?: 'sm' | 'md' | 'lg';
  /** Instead of the role's look: e.g. a group talk, which is no one person. */
  tone?: IconTone;
};

/** A user's picture, or the first two characters of the name styled by role (staff gold, men navy, women rose). */
export function UserIcon({ name, role, image, size = 'sm', tone }: UserIconProps) {
  // Picture URLs are signed and expire (a session keeps its last one): a picture that fails shows initials.
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <span
      className={cx('user-icon', `user-icon--${tone ?? toneOf(role)}`, `user-icon--${size}`)}
      aria-hidden="true"
    >
      {tone === 'club' ? (
        <span className="user-icon__mark">{ja.app.shortName}</span>
      ) : image && image !== failed ? (
        <img className="user-icon__image" src={image} alt="" onError={() => setFailed(image)} />
      ) : (
        initials(name)
      )}
    </span>
  );
}
