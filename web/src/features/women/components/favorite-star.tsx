import { jaMember } from '@enishi/contract';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { cx } from '@/components/ui/class-names';
import { useFavorite } from '../api/women';

/** The favourite star (product.md §19.4): a toggle button, pressed when she is a favourite. */
export function FavoriteStar({
  id,
  name,
  on,
  className,
}: {
  id: number;
  name: string;
  on: boolean;
  className?: string;
}) {
  const favorite = useFavorite();
  function toggle() {
    favorite.mutate(
      { id, on: !on },
      {
        onSuccess: () => toast(on ? jaMember.women.favoriteRemoved : jaMember.women.favoriteAdded),
        onError: (error) => toast(errorMessage(error)),
      },
    );
  }
  return (
    <button
      type="button"
      className={cx('favorite-star', on && 'favorite-star--on', className)}
      aria-pressed={on}
      aria-label={`${name} ${on ? jaMember.women.favoriteOff : jaMember.women.favoriteOn}`}
      onClick={toggle}
    >
      <svg width={22} height={22} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
          fill={on ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth={1.6}
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
