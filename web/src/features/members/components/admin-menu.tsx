import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRightIcon } from '@/components/ui/icons';
import './members.css';

export type AdminMenuItem = { to: string; label: string; icon: ReactNode };

/** A short list of big links: the /men/menu, /women/menu and /staff/menu screens. */
export function AdminMenu({ label, items }: { label: string; items: AdminMenuItem[] }) {
  return (
    <nav aria-label={label}>
      <ul className="card-list" role="list">
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className="admin-menu__link inset-focus">
              <span className="admin-menu__icon round-icon">{item.icon}</span>
              <span className="admin-menu__label">{item.label}</span>
              <ChevronRightIcon size={20} className="admin-menu__chevron" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
