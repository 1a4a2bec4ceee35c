import { ja } from '@enishi/contract';
import { NewsMenu } from '@/features/news/components/news-menu';
import { Page } from '@/components/layouts/page';

/** /news/menu: news for men or for women. */
export default function NewsMenuRoute() {
  return (
    <Page title={ja.screens.newsAdmin}>
      <NewsMenu />
    </Page>
  );
}
