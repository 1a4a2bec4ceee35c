import { jaMember } from '@enishi/contract';
import { useNavigate } from 'react-router';
import { useSession } from '@/lib/session';
import { Button, ButtonLink } from '@/components/ui/button';
import { clearGroupSelection, useGroupSelection } from '../utils/group-selection';
import { GroupSlots } from './group-slots';
import './groups.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * /managegroup/select: the chosen man and woman; 登録する only when both are there, a button for each
 * missing (or to change) side, and 最初からやり直す (product.md §2).
 */
export function GroupSelect() {
  const session = useSession();
  const { man, woman } = useGroupSelection(session?.uid ?? 0);
  const navigate = useNavigate();
  const both = Boolean(man && woman);

  return (
    <div className="group-flow">
      <GroupSlots
        man={man}
        woman={woman}
        action={(side, chosen) => (
          <ButtonLink
            to={side === 'man' ? '/managegroup/men' : '/managegroup/women'}
            variant={chosen ? 'quiet' : side === 'man' ? 'primary' : 'rose'}
            block
          >
            {side === 'man'
              ? chosen
                ? jaMember.groups.changeMan
                : jaMember.groups.chooseMan
              : chosen
                ? jaMember.groups.changeWoman
                : jaMember.groups.chooseWoman}
          </ButtonLink>
        )}
      />
      {both ? (
        <ButtonLink to="/managegroup/confirm" block>
          {jaMember.groups.register}
        </ButtonLink>
      ) : (
        <p className="group-flow__note">
          <Phrases text={jaMember.groups.needBoth} />
        </p>
      )}
      <Button
        variant="quiet"
        block
        onClick={() => {
          clearGroupSelection();
          void navigate('/managegroup');
        }}
      >
        {jaMember.groups.startOver}
      </Button>
    </div>
  );
}
