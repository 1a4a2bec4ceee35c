import { ja, type CannedReply, jaMember, can } from '@enishi/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { TextArea } from '@/components/ui/text-area';
import { TextField } from '@/components/ui/text-field';
import { useCannedReplies, useDeleteCanned, useSaveCanned } from '../api/canned';
import './desk.css';
import { Phrases } from '@/components/ui/phrases';

type Draft = { id?: number; name: string; body: string };
const EMPTY: Draft = { name: '', body: '' };

/** Adding a saved reply, or changing the one chosen for editing (roles 1 to 3). */
function CannedForm({ draft, setDraft }: { draft: Draft; setDraft: (draft: Draft) => void }) {
  const save = useSaveCanned();
  const [error, setError] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    save.mutate(draft, {
      onSuccess: () => {
        setDraft(EMPTY);
        toast(jaMember.cannedReplies.replySaved);
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  }

  return (
    <form
      className="paper-card canned-admin__form"
      onSubmit={onSubmit}
      aria-label={jaMember.cannedReplies.replyAdd}
    >
      <h2 className="canned-admin__title">
        {draft.id ? jaMember.cannedReplies.replyEdit : jaMember.cannedReplies.replyAdd}
      </h2>
      <TextField
        label={jaMember.cannedReplies.replyName}
        value={draft.name}
        maxLength={20}
        aria-describedby="canned-name-hint"
        onChange={(event) => setDraft({ ...draft, name: event.target.value })}
      />
      <p id="canned-name-hint" className="canned-admin__hint">
        <Phrases text={jaMember.cannedReplies.replyNameHint} />
      </p>
      <TextArea
        label={jaMember.cannedReplies.replyBody}
        value={draft.body}
        rows={4}
        maxLength={5000}
        aria-describedby="canned-body-hint"
        onChange={(event) => setDraft({ ...draft, body: event.target.value })}
      />
      <p id="canned-body-hint" className="canned-admin__hint">
        <Phrases text={jaMember.cannedReplies.replyBodyHint} />
      </p>
      {error ? (
        <p className="notice-box" role="alert">
          {error}
        </p>
      ) : null}
      <div className="canned-admin__actions">
        <Button type="submit" busy={save.isPending} disabled={save.isPending}>
          {jaMember.cannedReplies.replySave}
        </Button>
        {draft.id ? (
          <Button type="button" variant="quiet" onClick={() => setDraft(EMPTY)}>
            {ja.app.cancel}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * Saved replies (定型文, product.md §2.6): every staff member sees the list; roles 1 to 3 add, change and delete.
 * In a talk, `/` and the shortcut name (or the 定型文 button) put one into the comment box.
 */
export function CannedAdmin() {
  const session = useSession();
  const manage = can(session, 'reply.manage');
  const replies = useCannedReplies();
  const remove = useDeleteCanned();
  const confirm = useConfirm();
  const [draft, setDraft] = useState<Draft>(EMPTY);

  async function onDelete(reply: CannedReply) {
    if (!(await confirm({ message: jaMember.cannedReplies.replyDeleteConfirm }))) return;
    remove.mutate(reply.id, {
      onSuccess: () => {
        if (draft.id === reply.id) setDraft(EMPTY);
        toast(jaMember.cannedReplies.replyDeleted);
      },
      onError: (failure) => toast(errorMessage(failure)),
    });
  }

  return (
    <div className="canned-admin">
      {manage ? <CannedForm draft={draft} setDraft={setDraft} /> : null}
      <h2 className="canned-admin__title">{jaMember.cannedReplies.replyList}</h2>
      {replies.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : replies.isError ? (
        <p className="notice-box" role="alert">
          <Phrases text={errorMessage(replies.error)} />
        </p>
      ) : replies.data.rows.length === 0 ? (
        <p className="notice-box">
          <Phrases text={jaMember.cannedReplies.replyNone} />
        </p>
      ) : (
        <ul className="card-list" aria-label={jaMember.cannedReplies.replyList}>
          {replies.data.rows.map((reply) => (
            <li key={reply.id} className="canned-row">
              <p className="canned-row__name">/{reply.name}</p>
              <p className="canned-row__body">{reply.body}</p>
              {manage ? (
                <p className="canned-row__actions">
                  <Button variant="secondary" onClick={() => setDraft(reply)}>
                    {jaMember.members.edit}
                  </Button>
                  <Button variant="quiet" onClick={() => void onDelete(reply)}>
                    {ja.talk.delete}
                  </Button>
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
