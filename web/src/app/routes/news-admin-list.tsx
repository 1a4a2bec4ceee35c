import { useLocation } from 'react-router';
import { NewsAdminList } from '@/features/news/components/news-admin-list';
import { groupOfPath, screenTitle } from '@/features/news/utils/group';
import { Page } from '@/components/layouts/page';

/** /news/men/list, /news/women/list. */
export default function NewsAdminListRoute() {
  const group = groupOfPath(useLocation().pathname);
  return (
    <Page title={screenTitle(group, 'list')}>
      <NewsAdminList key={group} group={group} />
    </Page>
  );
}
