import { ja } from '@enishi/contract';
import { useEffect, useRef } from 'react';
import { CloseIcon } from '@/components/ui/icons';
import './image-viewer.css';

/** A picture of a message shown as large as the screen allows; Escape, the close button or a tap closes it. */
export function ImageViewer({ src, onClose }: { src: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    return () => {
      if (element.open) element.close();
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="viewer"
      aria-label={ja.talk.imageViewer}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={onClose}
    >
      <img className="viewer__image" src={src} alt={ja.talk.imageViewer} />
      <button type="button" className="viewer__close" aria-label={ja.app.close} onClick={onClose}>
        <CloseIcon size={24} />
      </button>
    </dialog>
  );
}
