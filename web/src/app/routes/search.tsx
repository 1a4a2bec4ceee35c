import { jaMember } from '@enishi/contract';
import { useSearchParams } from 'react-router';
import { MessageSearch } from '@/features/desk/components/message-search';
import { Page } from '@/components/layouts/page';

/** /search (?c= one talk): message search in the talks the user sees (product.md §2.6). */
export default function SearchRoute() {
  const [params] = useSearchParams();
  const talk = /^\d{1,15}$/.test(params.get('c') ?? '') ? Number(params.get('c')) : null;
  return (
    <Page title={jaMember.desk.search}>
      <MessageSearch conversationId={talk} startInTalk />
    </Page>
  );
}
