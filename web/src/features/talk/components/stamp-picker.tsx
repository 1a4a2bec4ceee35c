import { Phrases } from '@/components/ui/phrases';
import { jaMember, type Stamp } from '@enishi/contract';
import { useEffect } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { recentStamps, useStamps } from '../api/get-stamps';
import './stamp-picker.css';

/**
 * The stamp picker above the comment box (product.md §12.8): the stamps this person sent last first, then
 * every set in use. Choosing one sends it at once; Esc or the button closes it. Loaded when first opened.
 */
export default function StampPicker({
  id,
  onPick,
  onClose,
}: {
  id: string;
  onPick: (stamp: Stamp) => void;
  onClose: () => void;
}) {
  const stamps = useStamps();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const reply = stamps.data;
  const recent = reply ? recentStamps(reply) : [];
  return (
    <div id={id} className="stamp-picker" role="dialog" aria-label={jaMember.stamps.panel}>
      {stamps.isPending ? (
        <Spinner label={jaMember.stamps.loading} />
      ) : stamps.isError ? (
        <p className="stamp-picker__note" role="alert">
          <Phrases text={jaMember.stamps.loadFailed} />
        </p>
      ) : reply && reply.sets.length === 0 ? (
        <p className="stamp-picker__note">
          <Phrases text={jaMember.stamps.none} />
        </p>
      ) : (
        <>
          {recent.length > 0 ? (
            <StampGrid title={jaMember.stamps.recent} stamps={recent} onPick={onPick} />
          ) : null}
          {reply?.sets.map((set) => (
            <StampGrid key={set.id} title={set.name} stamps={set.stamps} onPick={onPick} />
          ))}
        </>
      )}
    </div>
  );
}

function StampGrid({
  title,
  stamps,
  onPick,
}: {
  title: string;
  stamps: Stamp[];
  onPick: (stamp: Stamp) => void;
}) {
  return (
    <section className="stamp-picker__section" aria-label={title}>
      <h2 className="stamp-picker__title">{title}</h2>
      <ul className="stamp-picker__grid" role="list">
        {stamps.map((stamp) => (
          <li key={stamp.id}>
            <button
              type="button"
              className="stamp-picker__stamp"
              aria-label={jaMember.stamps.send(stamp.label)}
              onClick={() => onPick(stamp)}
            >
              <img src={stamp.image} alt="" width={72} height={72} loading="lazy" decoding="async" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
