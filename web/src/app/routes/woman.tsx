import { ja, jaMember } from '@enishi/contract';
import { useParams } from 'react-router';
import { SettingRequestForm } from '@/features/setting/components/setting-request-form';
import { WomanDetail } from '@/features/women/components/woman-detail';
import { Page } from '@/components/layouts/page';
import { Phrases } from '@/components/ui/phrases';

/** /member/:id: one woman's profile, with the setting request under her name (product.md §18, §19.3). */
export default function WomanRoute() {
  const id = Number(useParams().id);
  return (
    <Page title={jaMember.women.detail}>
      {Number.isInteger(id) && id > 0 ? (
        <WomanDetail id={id}>
          <SettingRequestForm womanId={id} />
        </WomanDetail>
      ) : (
        <p className="notice-box">
          <Phrases text={ja.errors.notFound} />
        </p>
      )}
    </Page>
  );
}
