import { ja, type MemberNote, jaMember, can } from '@enishi/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { listTime } from '@/lib/japan-date';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { TextArea } from '@/components/ui/text-area';
import { TrashIcon } from '@/components/ui/icons';
import { useAddNote, useDeleteNote, useMemberNotes } from '../api/notes';
import './desk.css';
import { Phrases } from '@/components/ui/phrases';

/** One note: who wrote it and when, the delete button (for those who may), and its text. */
function NoteItem({ note, now, onDelete }: { note: MemberNote; now: Date; onDelete?: () => void }) {
  return (
    <li className="desk-note">
      <p className="desk-note__meta">
        <span className="desk-note__author">{jaMember.desk.noteBy(note.author)}</span>
        <time dateTime={note.created_at}>{listTime(note.created_at, now)}</time>
        {onDelete ? (
          <button type="button" className="desk-note__delete" aria-label={ja.talk.delete} onClick={onDelete}>
            <TrashIcon size={18} />
          </button>
        ) : null}
      </p>
      <p className="desk-note__body">{note.body}</p>
    </li>
  );
}

/**
 * Staff notes on a member (product.md §2.6): newest first, each with who wrote it and when, and a box to add
 * one. Members never see them. Authors, and roles 1 to 3, may delete a note.
 */
export function MemberNotes({ uid, headingLevel = 2 }: { uid: number; headingLevel?: 2 | 3 }) {
  const notes = useMemberNotes(uid);
  const add = useAddNote(uid);
  const remove = useDeleteNote(uid);
  const confirm = useConfirm();
  const session = useSession();
  const [draft, setDraft] = useState('');
  const [now] = useState(() => new Date());
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft.trim()) return toast(ja.talk.emptyComment);
    add.mutate(draft, {
      onSuccess: () => {
        setDraft('');
        toast(jaMember.desk.noteAdded);
      },
      onError: (error) => toast(errorMessage(error)),
    });
  }

  async function onDelete(note: MemberNote) {
    if (!(await confirm({ message: jaMember.desk.noteDeleteConfirm }))) return;
    remove.mutate(note.id, {
      onSuccess: () => toast(jaMember.desk.noteDeleted),
      onError: (error) => toast(errorMessage(error)),
    });
  }

  const mayDelete = (note: MemberNote) =>
    session !== null && (note.author_uid === session.uid || can(session, 'note.delete_any'));

  return (
    <section className="desk-notes" aria-labelledby={`notes-${uid}`}>
      <Heading id={`notes-${uid}`} className="desk-notes__title">
        {jaMember.desk.notes}
        <span className="desk-notes__lead">
          <Phrases text={jaMember.desk.notesLead} />
        </span>
      </Heading>
      <form className="desk-notes__form" onSubmit={onSubmit}>
        <TextArea
          label={jaMember.desk.noteBody}
          value={draft}
          maxLength={2000}
          rows={3}
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit" variant="secondary" busy={add.isPending} disabled={add.isPending}>
          {jaMember.desk.noteAdd}
        </Button>
      </form>
      {notes.isError ? (
        <p className="notice-box" role="alert">
          <Phrases text={errorMessage(notes.error)} />
        </p>
      ) : notes.data && notes.data.rows.length === 0 ? (
        <p className="desk-notes__empty">
          <Phrases text={jaMember.desk.noteNone} />
        </p>
      ) : (
        <ul className="desk-notes__list">
          {notes.data?.rows.map((note) => (
            <NoteItem
              key={note.id}
              note={note}
              now={now}
              onDelete={mayDelete(note) ? () => void onDelete(note) : undefined}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
