import { ja } from '@enishi/contract';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { cx } from '@/components/ui/class-names';
import { CountBadge } from '@/components/ui/count-badge';

export type Tone = 'plain' | 'men' | 'women';

type MenuTileProps = { to: string; label: string; icon: ReactNode; count?: number; tone?: Tone };

/**
 * One home menu entry. The link's accessible name is exactly the label; an unread count is its description,
 * kept outside the link so that it does not change the name.
 */
export function MenuTile({ to, label, icon, count = 0, tone = 'plain' }: MenuTileProps) {
  const countId = useId();
  return (
    <li className="menu-grid__item">
      <Link
        to={to}
        className={cx('menu-tile', `menu-tile--${tone}`)}
        aria-describedby={count > 0 ? countId : undefined}
      >
        <span className="menu-tile__icon round-icon">{icon}</span>
        <span className="menu-tile__label">{label}</span>
        <span className="menu-tile__badge">
          <CountBadge count={count} />
        </span>
      </Link>
      {count > 0 ? (
        <span id={countId} className="visually-hidden">
          {ja.home.unread(count)}
        </span>
      ) : null}
    </li>
  );
}
