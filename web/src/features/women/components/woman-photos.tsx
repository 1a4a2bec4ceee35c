import { jaMember } from '@enishi/contract';
import { useRef, useState, type KeyboardEvent } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '@/components/ui/icons';

/**
 * A woman's photos (product.md §19.3): one at a time, swiped (scroll snap), or by keyboard: the strip takes the
 * focus and the arrow keys, and the buttons step back and forth; the count says which one is shown.
 */
export function WomanPhotos({ name, photos }: { name: string; photos: string[] }) {
  const strip = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(0);
  const many = photos.length > 1;

  function show(index: number) {
    const element = strip.current;
    if (!element) return;
    const next = Math.max(0, Math.min(photos.length - 1, index));
    element.scrollTo({ left: next * element.clientWidth, behavior: 'smooth' });
    setShown(next);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (!step || !many) return;
    event.preventDefault();
    show(shown + step);
  }

  if (photos.length === 0) {
    return (
      <div className="woman-detail__photos">
        <span className="woman-detail__nophoto">{jaMember.women.noPhoto}</span>
      </div>
    );
  }
  return (
    <div className="woman-photos">
      <div
        ref={strip}
        className="woman-detail__photos"
        role="region"
        aria-label={many ? jaMember.women.photos(name) : jaMember.women.photo(name)}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={(event) => {
          const element = event.currentTarget;
          if (element.clientWidth > 0) setShown(Math.round(element.scrollLeft / element.clientWidth));
        }}
      >
        {photos.map((src, index) => (
          <img
            key={src}
            src={src}
            alt={jaMember.women.photo(name)}
            loading={index === 0 ? 'eager' : 'lazy'}
            aria-hidden={index === shown ? undefined : true}
          />
        ))}
      </div>
      {many ? (
        <div className="woman-photos__controls">
          <button
            type="button"
            className="woman-photos__step"
            aria-label={jaMember.women.previousPhoto}
            disabled={shown === 0}
            onClick={() => show(shown - 1)}
          >
            <ChevronLeftIcon size={20} />
          </button>
          <span className="woman-photos__count" aria-live="polite">
            {jaMember.women.photoCount(shown + 1, photos.length)}
          </span>
          <button
            type="button"
            className="woman-photos__step"
            aria-label={jaMember.women.nextPhoto}
            disabled={shown === photos.length - 1}
            onClick={() => show(shown + 1)}
          >
            <ChevronRightIcon size={20} />
          </button>
        </div>
      ) : null}
    </div>
  );
}
