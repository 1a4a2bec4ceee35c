import { type MemberKind, type UserRow, jaMember } from '@enishi/contract';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { PickedUserBar } from '@/components/picked-user-bar';
import { UserPicker } from '@/components/user-picker';
import { Button, ButtonLink } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { PersonAddIcon, TrashIcon, UserEditIcon } from '@/components/ui/icons';
import { useDeleteMember } from '../api/delete-member';
import { memberKinds } from '../utils/member-kinds';
import './members.css';

/**
 * /menlist, /womenlist (and /managewomen), /staff/list: search, select one, then 編集 or 削除 (product.md §2).
 * Deleting asks first and says which kind of record went (product.md §8).
 */
export function MemberList({ kind }: { kind: MemberKind }) {
  const { role, label, addPath, editPath } = memberKinds[kind];
  const [selected, setSelected] = useState<UserRow | null>(null);
  const confirm = useConfirm();
  const navigate = useNavigate();
  const remove = useDeleteMember();
  const reason = useId();
  const why = selected ? undefined : reason;

  async function onDelete() {
    if (!selected || remove.isPending) return;
    if (!(await confirm({ message: jaMember.members.deleteConfirm }))) return;
    remove.mutate(selected.uid, {
      onSuccess: () => {
        setSelected(null);
        toastSuccess(jaMember.members.deleted[kind]);
      },
      onError: (error) => toast(errorMessage(error)),
    });
  }

  return (
    <div className="member-list">
      <div className="member-list__top">
        <ButtonLink
          to={addPath}
          variant="quiet"
          icon={<PersonAddIcon size={20} />}
          className="member-list__add"
        >
          {jaMember.members.add}
        </ButtonLink>
      </div>
      <UserPicker
        role={role}
        label={jaMember.members.listLabel(label)}
        selected={selected}
        onSelect={setSelected}
      />
      <PickedUserBar selected={selected} reasonId={reason}>
        <div className="member-actions__buttons">
          <Button
            variant="secondary"
            icon={<UserEditIcon size={20} />}
            disabled={!selected}
            aria-describedby={why}
            onClick={() => selected && void navigate(editPath(selected.uid))}
          >
            {jaMember.members.edit}
          </Button>
          <Button
            variant="rose"
            icon={<TrashIcon size={20} />}
            disabled={!selected || remove.isPending}
            aria-describedby={why}
            busy={remove.isPending}
            onClick={() => void onDelete()}
          >
            {jaMember.members.delete}
          </Button>
        </div>
      </PickedUserBar>
    </div>
  );
}
