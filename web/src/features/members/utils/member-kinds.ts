import { NEW_USER_ROLE, ja, type MemberKind, jaMember } from '@enishi/contract';

/** Where each kind of record lives in the app, and how its screens are titled (product.md §2). */
export const memberKinds: Record<
  MemberKind,
  {
    role: number;
    label: string;
    listPath: string;
    addPath: string;
    editPath: (uid: number) => string;
    titles: { menu: string; list: string; add: string; edit: string };
  }
> = {
  men: {
    role: NEW_USER_ROLE.men,
    label: jaMember.members.kinds.men,
    listPath: '/menlist',
    addPath: '/men/add',
    editPath: (uid) => `/men/edit?id=${uid}`,
    titles: {
      menu: ja.screens.menAdmin,
      list: ja.screens.menList,
      add: ja.screens.menAdd,
      edit: ja.screens.menEdit,
    },
  },
  women: {
    role: NEW_USER_ROLE.women,
    label: jaMember.members.kinds.women,
    listPath: '/womenlist',
    addPath: '/women/add',
    editPath: (uid) => `/women/edit?id=${uid}`,
    titles: {
      menu: ja.screens.womenAdmin,
      list: ja.screens.womenList,
      add: ja.screens.womenAdd,
      edit: ja.screens.womenEdit,
    },
  },
  staff: {
    role: NEW_USER_ROLE.staff,
    label: jaMember.members.kinds.staff,
    listPath: '/staff/list',
    addPath: '/staff/add',
    editPath: (uid) => `/staff/edit?id=${uid}`,
    titles: {
      menu: ja.screens.staffAdmin,
      list: ja.screens.staffList,
      add: ja.screens.staffAdd,
      edit: ja.screens.staffEdit,
    },
  },
};
