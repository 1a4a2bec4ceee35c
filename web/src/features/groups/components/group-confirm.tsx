import { groupTalkName, jaMember } from '@enishi/contract';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { toast, toastSuccess } from '@/lib/toast';
import { Button, ButtonLink } from '@/components/ui/button';
import { useAddGroup } from '../api/add-group';
import { clearGroupSelection, useGroupSelection } from '../utils/group-selection';
import { GroupSlots } from './group-slots';
import './groups.css';
import { Phrases } from '@/components/ui/phrases';

/** /managegroup/confirm: the new group's name and members; registering goes home (product.md §4). */
export function GroupConfirm() {
  const session = useSession();
  const { man, woman } = useGroupSelection(session?.uid ?? 0);
  const navigate = useNavigate();
  const add = useAddGroup();
  // Once registered, the cleared selection must not send us back to the selection screen.
  const [registered, setRegistered] = useState(false);

  if (registered) return null;
  // product.md §5: a group needs both; without them there is nothing to confirm.
  if (!man || !woman) return <Navigate to="/managegroup/select" replace />;

  function onRegister() {
    if (!man || !woman || add.isPending) return;
    add.mutate(
      { man: man.uid, woman: woman.uid },
      {
        onSuccess: () => {
          setRegistered(true);
          clearGroupSelection();
          toastSuccess(jaMember.groups.registered);
          void navigate('/', { replace: true });
        },
        onError: (error) => toast(errorMessage(error)),
      },
    );
  }

  return (
    <div className="group-flow">
      <p className="group-flow__lead">
        <Phrases text={jaMember.groups.confirmLead} />
      </p>
      <dl className="group-name">
        <dt>{jaMember.groups.groupName}</dt>
        <dd>{groupTalkName(man.name, woman.name)}</dd>
      </dl>
      <GroupSlots man={man} woman={woman} />
      <Button block busy={add.isPending} disabled={add.isPending} onClick={onRegister}>
        {jaMember.groups.submit}
      </Button>
      <ButtonLink to="/managegroup/select" variant="quiet" block>
        {jaMember.groups.back}
      </ButtonLink>
    </div>
  );
}
