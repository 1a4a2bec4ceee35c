import { jaMember } from '@enishi/contract';
import { Link, useSearchParams } from 'react-router';
import { SettingBoard } from '@/features/setting/components/setting-board';
import { SettingCalendar } from '@/features/setting/components/setting-calendar';
import { SettingHistory } from '@/features/setting/components/setting-history';
import { SettingRequests } from '@/features/setting/components/setting-requests';
import { useDeskLayout } from '@/components/layouts/app-layout';
import { Page } from '@/components/layouts/page';
import { cx } from '@/components/ui/class-names';
import './settings.css';

/** /setting/history: a man's requests (a woman's arranged settings), product.md §18.2. */
export function SettingHistoryScreen() {
  return (
    <Page title={jaMember.setting.history}>
      <SettingHistory />
    </Page>
  );
}

const VIEWS = ['board', 'calendar', 'list'] as const;
type View = (typeof VIEWS)[number];

/**
 * /setting/requests: staff arrange or decline the men's requests (product.md §18.3), as a board (the desk's
 * first view), a calendar of arranged settings, or the list (a phone's first view) — ?view= (product.md §2.8).
 */
export function SettingRequestsScreen() {
  const desk = useDeskLayout();
  const [params] = useSearchParams();
  const asked = params.get('view');
  const view: View = VIEWS.find((each) => each === asked) ?? (desk ? 'board' : 'list');
  return (
    <Page title={jaMember.setting.requests}>
      <nav className="setting-views" aria-label={jaMember.board.viewsLabel}>
        {VIEWS.map((each) => (
          <Link
            key={each}
            to={`?view=${each}`}
            replace
            className={cx('setting-views__item', each === view && 'setting-views__item--on')}
            aria-current={each === view ? 'page' : undefined}
          >
            {jaMember.board.views[each]}
          </Link>
        ))}
      </nav>
      {view === 'board' ? <SettingBoard /> : view === 'calendar' ? <SettingCalendar /> : <SettingRequests />}
    </Page>
  );
}
