import { MESSAGE_IMAGES_MAX, MESSAGE_MAX, ja, type ContentGroup, jaMember } from '@enishi/contract';
import { useId, useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { talkImageDataUrl } from '@/lib/image-files';
import { toast, toastSuccess } from '@/lib/toast';
import { useImagePicker } from '@/lib/use-image-picker';
import { Button, ButtonLink } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { CloseIcon, SendIcon } from '@/components/ui/icons';
import { ImagePickButton } from '@/components/ui/image-pick-button';
import { Spinner } from '@/components/ui/spinner';
import { TextArea } from '@/components/ui/text-area';
import { useRecipients } from '../api/get-recipients';
import { useSendBroadcast } from '../api/send-broadcast';
import { useBroadcastDraft } from '../hooks/use-broadcast-draft';
import { useSendAt } from '../hooks/use-send-at';
import { sentText, typeOf } from '../utils/target';
import { scheduledText, whenLabel } from '../utils/send-at';
import { ScheduleField } from './schedule-field';
import './broadcast.css';
import { Phrases } from '@/components/ui/phrases';

/** How many will get the message and a link to change them; with nobody, why 送信 is greyed out. */
function RecipientSummary({ group, count, whyId }: { group: ContentGroup; count: number; whyId: string }) {
  return (
    <>
      <div className="broadcast__summary">
        <p className="broadcast__recipients">{jaMember.broadcast.recipients(count)}</p>
        <ButtonLink to={`/${group}/send`} variant="quiet">
          {jaMember.broadcast.changeRecipients}
        </ButtonLink>
      </div>
      {count === 0 ? (
        <p id={whyId} className="broadcast__empty">
          <Phrases text={jaMember.broadcast.sendDisabled} />
        </p>
      ) : null}
    </>
  );
}

/** The images going with the message: the hint, the chosen ones (each with its remove button), and the add button. */
function BroadcastImages({
  images,
  setImages,
  hintId,
}: {
  images: string[];
  setImages: Dispatch<SetStateAction<string[]>>;
  hintId: string;
}) {
  const picker = useImagePicker({
    types: ['image/jpeg', 'image/png'],
    room: MESSAGE_IMAGES_MAX - images.length,
    read: talkImageDataUrl,
    onPicked: (picked) => {
      if (picked.skipped) toast(jaMember.broadcast.skippedImages);
      setImages((current) => [...current, ...picked.images].slice(0, MESSAGE_IMAGES_MAX));
    },
  });

  return (
    <div className="broadcast__images-field">
      <p id={hintId} className="broadcast__hint">
        <Phrases text={jaMember.broadcast.imageHint} />
      </p>
      {images.length > 0 ? (
        <ul className="broadcast__images thumb-grid" role="list" aria-label={ja.talk.selectedImages}>
          {images.map((src, index) => (
            <li key={`${index}-${src.length}`} className="broadcast__image">
              <img src={src} alt="" />
              <button
                type="button"
                className="broadcast__remove-image"
                aria-label={ja.talk.removeImage.replace('{n}', String(index + 1))}
                onClick={() => setImages((current) => current.filter((_, i) => i !== index))}
              >
                <CloseIcon size={16} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <ImagePickButton
        label={jaMember.broadcast.addImage}
        className="broadcast__pick"
        disabled={images.length >= MESSAGE_IMAGES_MAX}
        describedBy={hintId}
        onPick={picker.pick}
      />
    </div>
  );
}

/**
 * /men/send/form, /women/send/form (product.md §4): the text (kept as a draft) and images for the chosen members.
 * Sending clears the draft and the choice, says 一括送信男性へ送信しました (or 女性) and goes home. With nobody
 * chosen, 送信 is greyed out and the line above says why (product.md §2.8).
 */
export function BroadcastForm({ group }: { group: ContentGroup }) {
  const recipients = useRecipients(typeOf(group));
  const { text, setText, selected, clear } = useBroadcastDraft(group);
  const [images, setImages] = useState<string[]>([]);
  const send = useSendBroadcast();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const ids = useId();

  // Members deleted since they were chosen drop out of the send.
  const users = useMemo(() => {
    const known = new Set((recipients.data?.rows ?? []).map((row) => row.uid));
    return selected.filter((uid) => known.has(uid));
  }, [recipients.data, selected]);

  const schedule = useSendAt();
  const { later, at, min, sendAt } = schedule;

  async function onSend() {
    if (send.isPending) return;
    if (!text.trim() && images.length === 0) return toast(ja.talk.emptyComment);
    if (users.length === 0) return toast(jaMember.broadcast.noRecipients);
    const when = sendAt();
    if (when && 'wrong' in when) return toast(when.wrong);
    const asked = when
      ? {
          message: jaMember.broadcast.scheduleConfirm(users.length, whenLabel(when.send_at, new Date())),
          confirmLabel: jaMember.broadcast.scheduleButton,
        }
      : { message: jaMember.broadcast.sendConfirm(users.length), confirmLabel: jaMember.broadcast.send };
    if (!(await confirm(asked))) return;
    send.mutate(
      { type: typeOf(group), users, message: text, image: images, ...(when ?? {}) },
      {
        onSuccess: () => {
          clear();
          toastSuccess(when ? scheduledText(group) : sentText(group));
          // A scheduled send is seen in 予約一覧, beside the recipients.
          void navigate(when ? `/${group}/send` : '/');
        },
        onError: (error) => toast(errorMessage(error)),
      },
    );
  }

  if (recipients.isPending) return <Spinner label={ja.app.loading} />;

  return (
    <div className="broadcast">
      <RecipientSummary group={group} count={users.length} whyId={`${ids}-why`} />

      <TextArea
        label={jaMember.broadcast.message}
        className="broadcast__text"
        placeholder={ja.talk.placeholder}
        value={text}
        maxLength={MESSAGE_MAX}
        rows={6}
        onChange={(event) => setText(event.target.value)}
      />

      <BroadcastImages images={images} setImages={setImages} hintId={`${ids}-images`} />

      <ScheduleField on={later} onToggle={schedule.setLater} at={at} onAt={schedule.setAt} min={min} />

      <Button
        block
        variant={group === 'men' ? 'primary' : 'rose'}
        icon={<SendIcon size={20} />}
        onClick={() => void onSend()}
        busy={send.isPending}
        disabled={send.isPending || users.length === 0}
        aria-describedby={users.length === 0 ? `${ids}-why` : undefined}
      >
        {later ? jaMember.broadcast.scheduleButton : jaMember.broadcast.send}
      </Button>
    </div>
  );
}
