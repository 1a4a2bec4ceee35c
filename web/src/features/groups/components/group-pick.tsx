import { ROLE, type UserRow, jaMember } from '@enishi/contract';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '@/lib/session';
import { PickedUserBar } from '@/components/picked-user-bar';
import { UserPicker } from '@/components/user-picker';
import { Button } from '@/components/ui/button';
import { CheckCircleIcon } from '@/components/ui/icons';
import { chooseForGroup, useGroupSelection, type Side } from '../utils/group-selection';
import './groups.css';

/** /managegroup/men, /managegroup/women: search, radio-select one member, then confirm the choice. */
export function GroupPick({ side }: { side: Side }) {
  const session = useSession();
  const staffUid = session?.uid ?? 0;
  const current = useGroupSelection(staffUid)[side];
  const navigate = useNavigate();
  const [selected, setSelected] = useState<UserRow | null>(null);
  const reason = useId();
  const role = side === 'man' ? ROLE.male : ROLE.female;
  const kind = side === 'man' ? jaMember.members.kinds.men : jaMember.members.kinds.women;

  function onChoose() {
    if (!selected) return;
    chooseForGroup(staffUid, side, { uid: selected.uid, id: selected.id, name: selected.name });
    void navigate('/managegroup/select');
  }

  return (
    <div className="group-flow">
      {current ? (
        <p className="group-flow__current">
          {jaMember.groups.chosen}: {current.name}
        </p>
      ) : null}
      <UserPicker
        role={role}
        label={jaMember.members.listLabel(kind)}
        selected={selected}
        onSelect={setSelected}
      />
      <PickedUserBar selected={selected} reasonId={reason}>
        <Button
          block
          icon={<CheckCircleIcon size={20} />}
          disabled={!selected}
          aria-describedby={selected ? undefined : reason}
          onClick={onChoose}
        >
          {jaMember.groups.choose}
        </Button>
      </PickedUserBar>
    </div>
  );
}
