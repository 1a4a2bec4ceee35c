import { jaMember } from '@enishi/contract';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import type { RowSelectionState } from '@tanstack/react-table';
import { updateLocalState } from '@/lib/local-state';
import { SendIcon } from '@/components/ui/icons';
import { Phrases } from '@/components/ui/phrases';

const t = jaMember.table;

/**
 * The chosen rows and the bulk send to them: the choice becomes the bulk-send draft's recipients (the same
 * local draft /men/send keeps, product.md §3), and its form sends them with /api/messages/send as ever.
 * A disabled button says why.
 */
export function SelectionBar({
  kind,
  selected,
  onClear,
}: {
  kind: 'men' | 'women';
  selected: RowSelectionState;
  onClear: () => void;
}) {
  const navigate = useNavigate();
  const reason = useId();
  const uids = Object.keys(selected)
    .filter((key) => selected[key])
    .map(Number);
  function send() {
    const key = kind === 'men' ? 'sendmen' : 'sendwomen';
    updateLocalState((state) =>
      state.session ? { ...state, recipients: { ...state.recipients, [key]: uids } } : state,
    );
    void navigate(`/${kind}/send/form`);
  }
  return (
    <div className="member-table__selection">
      <p className="member-table__selected" role="status">
        {uids.length > 0 ? t.selected(uids.length) : null}
      </p>
      {uids.length > 0 ? (
        <button type="button" className="btn btn--quiet" onClick={onClear}>
          <span className="btn__label">{t.clearSelection}</span>
        </button>
      ) : (
        <p id={reason} className="member-table__reason">
          <Phrases text={t.sendDisabled} />
        </p>
      )}
      <button
        type="button"
        className="btn btn--primary"
        disabled={uids.length === 0}
        aria-describedby={uids.length === 0 ? reason : undefined}
        onClick={send}
      >
        <SendIcon size={18} />
        <span className="btn__label">{t.sendToSelected}</span>
      </button>
    </div>
  );
}
