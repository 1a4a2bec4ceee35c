import { jaMember } from '@enishi/contract';
import { useRef } from 'react';
import { errorMessage } from '@/lib/api-client';
import { rejectedImagesText } from '@/lib/image-files';
import type { Session } from '@/lib/session';
import { toast, toastSuccess } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { CameraIcon } from '@/components/ui/icons';
import { useUploadOwnImage } from '../api/upload-user-image';
import { PROFILE_IMAGE_TYPES, profileImageDataUrl } from '../utils/profile-image';

/** 画像を変更: pick a JPEG or PNG (anything else is refused in words), shrunk here to 200 px and sent as JPEG. */
export function ProfileImageButton({ session }: { session: Session }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadOwnImage(session.uid);

  async function onPick(file: File | undefined) {
    if (!file) return;
    // Not a JPEG or PNG, over 5 MB, or unreadable: said, with the limit (product.md §5).
    const rejected = rejectedImagesText([file], PROFILE_IMAGE_TYPES);
    if (rejected) return toast(rejected);
    const image = await profileImageDataUrl(file);
    if (!image) return toast(jaMember.images.unreadable);
    upload.mutate(image, {
      onSuccess: () => toastSuccess(jaMember.memberMenu.imageUploaded),
      onError: (error) => toast(errorMessage(error)),
    });
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={PROFILE_IMAGE_TYPES.join(',')}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          void onPick(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <Button
        variant="quiet"
        className="profile-card__upload"
        icon={<CameraIcon size={18} />}
        busy={upload.isPending}
        disabled={upload.isPending}
        onClick={() => input.current?.click()}
      >
        {upload.isPending ? jaMember.memberMenu.imageUploading : jaMember.mypage.imageUpload}
      </Button>
    </>
  );
}
