import { jaMember } from '@enishi/contract';
import { StampAdmin } from '@/features/stamps/components/stamp-admin';
import { Page } from '@/components/layouts/page';

/** /stamps: the stamp sets, and a new one to add (product.md §12.8). */
export default function StampAdminRoute() {
  return (
    <Page title={jaMember.stampAdmin.adminTitle}>
      <StampAdmin />
    </Page>
  );
}
