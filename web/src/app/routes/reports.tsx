import { jaMember } from '@enishi/contract';
import { Page } from '@/components/layouts/page';
import { ReportsScreen } from '@/features/reports/components/reports-screen';

/** /reports: the admin's and the owner's figures of the desk and the settings (product.md §2.9). */
export default function ReportsRoute() {
  return (
    <Page title={jaMember.reports.title}>
      <ReportsScreen />
    </Page>
  );
}
