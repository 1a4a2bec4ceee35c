import { jaMember } from '@enishi/contract';
import { useSession } from '@/lib/session';
import { ButtonLink } from '@/components/ui/button';
import { useGroupSelection } from '../utils/group-selection';
import { GroupSlots } from './group-slots';
import './groups.css';
import { Phrases } from '@/components/ui/phrases';

/** /managegroup: choose whether to pick the man or the woman first (product.md §2). */
export function GroupStart() {
  const session = useSession();
  const { man, woman } = useGroupSelection(session?.uid ?? 0);
  return (
    <div className="group-flow">
      <p className="group-flow__lead">
        <Phrases text={jaMember.groups.lead} />
      </p>
      <GroupSlots
        man={man}
        woman={woman}
        action={(side) => (
          <ButtonLink
            to={side === 'man' ? '/managegroup/men' : '/managegroup/women'}
            variant={side === 'man' ? 'primary' : 'rose'}
            block
          >
            {side === 'man' ? jaMember.groups.chooseMan : jaMember.groups.chooseWoman}
          </ButtonLink>
        )}
      />
      {man || woman ? (
        <ButtonLink to="/managegroup/select" variant="secondary" block>
          {jaMember.groups.toSelection}
        </ButtonLink>
      ) : null}
    </div>
  );
}
