import { jaMember } from '@enishi/contract';
import { useRef } from 'react';
import { errorMessage } from '@/lib/api-client';
import type { Session } from '@/lib/session';
import { toast, toastSuccess } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { CameraIcon } from '@/components/ui/icons';
import { useUploadOwnImage } from '../api/upload-user-image';
import { profileImageDataUrl } from '../utils/profile-image';

/** 画像を変更: pick a JPEG or PNG (others are silently ignored), shrunk here to 200 px and sent as JPEG. */
export function ProfileImageButton({ session }: { session: Session }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadOwnImage(session.uid);

  async function onPick(file: File | undefined) {
    if (!file) return;
    const image = await profileImageDataUrl(file);
    if (!image) return;
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
        accept="image/jpeg,image/png"
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
