import { ja } from '@enishi/contract';
import { cx } from './class-names';
import './rank-pill.css';

/**
 * A male member's rank (一般, プラチナ, VIP…) as one pill everywhere it shows: admin lists, the bulk-send
 * recipients, mypage. Nothing for no rank.
 */
export function RankPill({ rank, size = 'sm' }: { rank: number; size?: 'sm' | 'lg' }) {
  const label = ja.ranks[rank];
  if (!label) return null;
  return (
    <span className={cx('rank-pill', `rank-pill--${rank}`, size === 'lg' && 'rank-pill--lg')}>{label}</span>
  );
}
