import { useLocation, useSearchParams } from 'react-router';
import { NewsForm } from '@/features/news/components/news-form';
import { groupOfPath, screenTitle } from '@/features/news/utils/group';
import { Page } from '@/components/layouts/page';

/** /news/{men,women}/add and /news/{men,women}/edit?id=. */
export default function NewsAdminFormRoute() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const group = groupOfPath(pathname);
  const editing = pathname.endsWith('/edit');
  const id = Number(params.get('id'));
  const validId = editing && Number.isInteger(id) && id > 0 ? id : undefined;
  return (
    <Page title={screenTitle(group, editing ? 'edit' : 'add')}>
      <NewsForm
        key={`${group}-${validId ?? 'new'}`}
        group={group}
        id={editing ? (validId ?? -1) : undefined}
      />
    </Page>
  );
}
