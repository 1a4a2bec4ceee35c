import { ja } from '@enishi/contract';
import { GroupConfirm } from '@/features/groups/components/group-confirm';
import { GroupPick } from '@/features/groups/components/group-pick';
import { GroupSelect } from '@/features/groups/components/group-select';
import { GroupStart } from '@/features/groups/components/group-start';
import { Page } from '@/components/layouts/page';

/** Group registration (product.md §2, §4): choose, pick the man and the woman, confirm. */
export function ManageGroup() {
  return (
    <Page title={ja.screens.managegroup}>
      <GroupStart />
    </Page>
  );
}

export function ManageGroupMen() {
  return (
    <Page title={ja.screens.managegroupMen}>
      <GroupPick side="man" />
    </Page>
  );
}

export function ManageGroupWomen() {
  return (
    <Page title={ja.screens.managegroupWomen}>
      <GroupPick side="woman" />
    </Page>
  );
}

export function ManageGroupSelect() {
  return (
    <Page title={ja.screens.managegroupSelect}>
      <GroupSelect />
    </Page>
  );
}

export function ManageGroupConfirm() {
  return (
    <Page title={ja.screens.managegroupConfirm}>
      <GroupConfirm />
    </Page>
  );
}
