import { jaMember } from '@enishi/contract';
import { CannedAdmin } from '@/features/desk/components/canned-admin';
import { Page } from '@/components/layouts/page';
import { Phrases } from '@/components/ui/phrases';

/** /replies: the saved replies (定型文) of the desk (product.md §2.6); staff only. */
export default function RepliesRoute() {
  return (
    <Page title={jaMember.desk.replies} lead={<Phrases text={jaMember.cannedReplies.repliesLead} />}>
      <CannedAdmin />
    </Page>
  );
}
