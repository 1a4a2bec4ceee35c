import { ja } from '@enishi/contract';
import { NewsFeed } from '@/features/news/components/news-feed';
import { useSession } from '@/lib/session';
import { Page } from '@/components/layouts/page';

/** /news: the news of the member's group (all news for staff). */
export default function NewsRoute() {
  const session = useSession();
  if (!session) return null;
  return (
    <Page title={ja.screens.news}>
      <NewsFeed role={session.role} />
    </Page>
  );
}
