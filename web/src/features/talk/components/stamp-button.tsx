import { jaMember, type Stamp } from '@enishi/contract';
import { lazy, Suspense, useId, useState } from 'react';
import { StampIcon } from '@/components/ui/icons';

// The panel and its sets load when it is first opened, never with the talk.
const StampPicker = lazy(() => import('./stamp-picker'));

/** The スタンプ button beside the comment box and, when open, the picker above it (product.md §12.8). */
export function StampButton({ onPick }: { onPick: (stamp: Stamp) => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <>
      <button
        type="button"
        className="composer__picker composer__stamp-toggle"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={open ? jaMember.talkLimit.stamp.close : jaMember.talkLimit.stamp.open}
        onClick={() => setOpen((was) => !was)}
      >
        <StampIcon size={24} />
      </button>
      {open ? (
        <Suspense fallback={null}>
          <StampPicker
            id={panelId}
            onPick={(stamp) => {
              setOpen(false);
              onPick(stamp);
            }}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
