import { MESSAGE_IMAGES_MAX, ja, type ReplyRef, type Stamp } from '@enishi/contract';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useDraft } from '@/lib/chat/drafts';
import { talkImageDataUrl } from '@/lib/image-files';
import { toast } from '@/lib/toast';
import { useImagePicker } from '@/lib/use-image-picker';
import { useCannedPicker, type CannedChoice } from './canned-picker';
import {
  AttachButton,
  CannedToggle,
  ComposerHint,
  ComposerInput,
  ReplyBar,
  SendButton,
  Thumbs,
} from './composer-parts';
import { StampButton } from './stamp-button';
import './composer.css';

export type Outgoing = {
  message: string;
  image: string[];
  reply: ReplyRef | null;
  /** A stamp, sent alone (product.md §12.8). */
  stamp?: Stamp;
};

/** Talk pictures: JPEG or PNG only (product.md §5). */
const TALK_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;

type ComposerProps = {
  conversationId: number;
  replyTo: ReplyRef | null;
  onCancelReply: () => void;
  onSend: (outgoing: Outgoing) => void;
  /** Saved replies (staff): `/name` or the 定型文 button puts one in. */
  canned?: CannedChoice[];
  fillCanned?: (body: string) => string;
};

/**
 * The comment box (product.md §2, §5): a textarea that grows with its text (80px to 40vh), pictures to attach,
 * the reply being written and the send button. The text is a draft kept per talk until it is sent.
 */
export function Composer({
  conversationId,
  replyTo,
  onCancelReply,
  onSend,
  canned = [],
  fillCanned = (body) => body,
}: ComposerProps) {
  const [draft, setDraft] = useDraft(conversationId);
  const { images, setImages, reading, pick } = useTalkImages();
  const textarea = useGrowing(draft);
  const id = useId();
  const picker = useCannedPicker({ replies: canned, draft, setDraft, fill: fillCanned, textarea });

  // Choosing 返信 in a message's menu goes on to writing the reply.
  useEffect(() => {
    if (replyTo) textarea.current?.focus();
  }, [replyTo, textarea]);

  function send() {
    if (reading > 0) return;
    if (!draft.trim() && images.length === 0) {
      toast(ja.talk.emptyComment);
      textarea.current?.focus();
      return;
    }
    onSend({ message: draft, image: images, reply: replyTo });
    setDraft('');
    setImages([]);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send();
  }

  // Enter is a new line (phones have no other way); Ctrl/⌘+Enter sends from a keyboard.
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (picker.onKeyDown(event)) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  }

  return (
    <form className="composer" onSubmit={onSubmit}>
      {replyTo ? <ReplyBar replyTo={replyTo} onCancel={onCancelReply} /> : null}
      {images.length > 0 || reading > 0 ? (
        <Thumbs
          images={images}
          reading={reading}
          onRemove={(index) => setImages((current) => current.filter((_, at) => at !== index))}
        />
      ) : null}
      {picker.list}
      <div className="composer__row">
        <AttachButton types={TALK_IMAGE_TYPES} onPick={(event) => void pick(event)} />
        <StampButton onPick={(stamp) => onSend({ message: '', image: [], reply: replyTo, stamp })} />
        {canned.length > 0 ? <CannedToggle picker={picker} /> : null}
        <ComposerInput
          id={id}
          ref={textarea}
          value={draft}
          onChange={setDraft}
          picker={picker}
          onKeyDown={onKeyDown}
        />
        <SendButton busy={reading > 0} />
      </div>
      <ComposerHint id={`${id}-hint`} length={draft.length} />
    </form>
  );
}

/** The pictures attached to the comment. */
function useTalkImages() {
  const [images, setImages] = useState<string[]>([]);
  // A picture left out is always told, with the limit it broke (product.md §5).
  const { reading, pick } = useImagePicker({
    types: TALK_IMAGE_TYPES,
    room: MESSAGE_IMAGES_MAX - images.length,
    read: talkImageDataUrl,
    onPicked: (picked) => {
      if (picked.problem) toast(picked.problem);
      else if (picked.overflow) toast(ja.errors.tooManyImages);
      setImages((current) => [...current, ...picked.images]);
    },
  });
  return { images, setImages, reading, pick };
}

/**
 * The comment box's element, grown with the text where CSS `field-sizing` is missing (Safari); the CSS keeps it
 * within 80px..40vh.
 */
function useGrowing(text: string) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element || CSS.supports?.('field-sizing', 'content')) return;
    element.style.height = 'auto';
    element.style.height = `${element.scrollHeight + 2}px`;
  }, [text]);
  return textarea;
}
