import { ROLE_TRAITS } from '@enishi/contract';
import { useMemberBanners } from '../api/get-banners';
import { BannerArea } from './banner-area';

/** The banners of the member's group under the home menu (nothing while loading or on failure). */
export function MemberBanners({ role }: { role: number }) {
  const banners = useMemberBanners(ROLE_TRAITS[role]?.contentType ?? 1);
  return <BannerArea banners={banners.data?.rows ?? []} />;
}
