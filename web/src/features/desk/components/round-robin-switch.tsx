import { jaMember } from '@enishi/contract';
import { useId } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useDeskStaff, useSetRoundRobin } from '../api/desk-talk';

const t = jaMember.deskTalk;

/** The admin's switch (desk.round_robin): new members' 担当 in turn, off by default (product.md §2.6). */
export function RoundRobinSwitch() {
  const id = useId();
  const staff = useDeskStaff();
  const save = useSetRoundRobin();
  const on = staff.data?.round_robin ?? false;
  return (
    <div className="desk-filters__row">
      <label className="desk-filters__check">
        <input
          type="checkbox"
          checked={on}
          disabled={!staff.data || save.isPending}
          aria-describedby={`${id}-hint`}
          onChange={(event) =>
            save.mutate(event.target.checked, {
              onSuccess: (reply) => toast(reply.round_robin ? t.roundRobinOn : t.roundRobinOff, true),
              onError: (error) => toast(errorMessage(error)),
            })
          }
        />
        {t.roundRobin}
      </label>
      <span id={`${id}-hint`} className="visually-hidden">
        {t.roundRobinHint}
      </span>
    </div>
  );
}
