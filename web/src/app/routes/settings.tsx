import { jaMember } from '@enishi/contract';
import { SettingHistory } from '@/features/setting/components/setting-history';
import { SettingRequests } from '@/features/setting/components/setting-requests';
import { Page } from '@/components/layouts/page';

/** /setting/history: a man's requests (a woman's arranged settings), product.md §18.2. */
export function SettingHistoryScreen() {
  return (
    <Page title={jaMember.setting.history}>
      <SettingHistory />
    </Page>
  );
}

/** /setting/requests: staff arrange or decline the men's requests (product.md §18.3). */
export function SettingRequestsScreen() {
  return (
    <Page title={jaMember.setting.requests}>
      <SettingRequests />
    </Page>
  );
}
