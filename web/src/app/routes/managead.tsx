import { ja } from '@enishi/contract';
import { BannerAdmin } from '@/features/banners/components/banner-admin';
import { Page } from '@/components/layouts/page';

/** /managead: the men's and the women's ad banners. */
export default function ManageAdRoute() {
  return (
    <Page title={ja.screens.bannerAdmin}>
      <BannerAdmin />
    </Page>
  );
}
