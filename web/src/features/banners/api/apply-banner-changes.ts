import type { ContentType } from '@enishi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addBanner } from './add-banner';
import { deleteBanner } from './delete-banner';
import { bannersQueryKey } from './get-banners';

export type BannerChanges = {
  type: ContentType;
  add: { url: string; image: string } | null;
  remove: number[];
};

/** Which step failed, and what had been done before it. */
export class BannerChangeError extends Error {
  constructor(
    readonly step: 'add' | 'delete',
    readonly added: boolean,
    readonly error: unknown,
  ) {
    super(`banner ${step} failed`);
    this.name = 'BannerChangeError';
  }
}

/** Adds the new banner (if any), then deletes the chosen ones; stops at the first failure. */
async function applyBannerChanges(changes: BannerChanges): Promise<{ added: boolean; removed: number }> {
  let added = false;
  if (changes.add) {
    try {
      await addBanner({ ...changes.add, type: changes.type });
      added = true;
    } catch (error) {
      throw new BannerChangeError('add', false, error);
    }
  }
  let removed = 0;
  for (const id of changes.remove) {
    try {
      await deleteBanner(id);
      removed += 1;
    } catch (error) {
      throw new BannerChangeError('delete', added, error);
    }
  }
  return { added, removed };
}

export function useApplyBannerChanges() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyBannerChanges,
    onSettled: () => queryClient.invalidateQueries({ queryKey: bannersQueryKey }),
  });
}
