import { ja, jaMember } from '@enishi/contract';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { SettingRequestForm } from '@/features/setting/components/setting-request-form';
import { WomanDetail } from '@/features/women/components/woman-detail';
import { Page } from '@/components/layouts/page';
import { Phrases } from '@/components/ui/phrases';

/** /member/:id: one woman's profile, with the setting request under her name (product.md §18, §19.3). */
export default function WomanRoute() {
  const id = Number(useParams().id);
  return (
    <Page title={jaMember.women.detail}>
      <BackToList />
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

/**
 * Back to the women's list: from a card, a step back in history, so the list comes back with its filters (in
 * its address) and its scroll position (restored by the router); opened from elsewhere, the list itself.
 */
function BackToList() {
  const navigate = useNavigate();
  const fromList = (useLocation().state as { fromList?: boolean } | null)?.fromList === true;
  return (
    <button
      type="button"
      className="woman-back"
      onClick={() => (fromList ? navigate(-1) : navigate('/member'))}
    >
      <ChevronLeftIcon size={18} />
      {jaMember.women.backToList}
    </button>
  );
}
