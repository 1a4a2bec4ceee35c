import './count-badge.css';

/** A small unread count; nothing at all for zero. Hidden from assistive tech: callers describe it in words. */
export function CountBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="count-badge" aria-hidden="true">
      {count > 99 ? '99+' : count}
    </span>
  );
}
