import { jaMember } from '@enishi/contract';
import { SecurityPanel } from '@/features/security/components/security-panel';
import { useSession } from '@/lib/session';
import { Page } from '@/components/layouts/page';
import { Phrases } from '@/components/ui/phrases';

/** /security: ログインとセキュリティ for everyone logged in (product.md §2, §11.7). */
export default function SecurityRoute() {
  const session = useSession();
  if (!session) return null;
  return (
    <Page title={jaMember.security.title} lead={<Phrases text={jaMember.security.lead} />}>
      <SecurityPanel session={session} />
    </Page>
  );
}
