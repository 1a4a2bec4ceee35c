import { Icon, type IconProps } from './icon';

/*
 * The staff's menus and sidebar, and the screens a menu leads to (back and forward, history, sending): kept out
 * of icons/menu.tsx, which a man's home loads in its first chunk.
 */

export const GroupAddIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="9" cy="8.5" r="3" />
    <path d="M3.5 19c.9-3 3-4.7 5.5-4.7s4.6 1.7 5.5 4.7" />
    <path d="M18 8v6M15 11h6" />
  </Icon>
);

export const UserEditIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="9.5" cy="8.5" r="3.2" />
    <path d="M3.5 19.5c1-3 3.3-4.8 6-4.8 1 0 1.9.2 2.7.6" />
    <path d="m14.5 19.5.4-2.3 4.3-4.3a1.3 1.3 0 0 1 1.9 1.9l-4.3 4.3-2.3.4Z" />
  </Icon>
);

export const MegaphoneIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 10v4a1 1 0 0 0 1 1h2l8 4.5v-15L7 9H5a1 1 0 0 0-1 1Z" />
    <path d="M7.5 15.2 9 20h2.3M18.5 9.5a3.5 3.5 0 0 1 0 5" />
  </Icon>
);

export const StaffIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="5" y="3.5" width="14" height="17" rx="2" />
    <path d="M10 3.5v2h4v-2" />
    <circle cx="12" cy="11" r="2.2" />
    <path d="M8.5 17c.6-1.6 1.9-2.5 3.5-2.5s2.9.9 3.5 2.5" />
  </Icon>
);

export const SendIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M20.5 3.5 10 14" />
    <path d="m20.5 3.5-6.5 17-4-6.5-6.5-4 17-6.5Z" />
  </Icon>
);

export const ChevronRightIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m9.5 6 6 6-6 6" />
  </Icon>
);

export const ChevronLeftIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m14.5 6-6 6 6 6" />
  </Icon>
);

export const PersonAddIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="10" cy="8.5" r="3.5" />
    <path d="M3.5 19.5c1.1-3.2 3.5-5 6.5-5 1.3 0 2.5.3 3.5 1" />
    <path d="M18 14v6M15 17h6" />
  </Icon>
);

export const ListIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M9 6.5h10.5M9 12h10.5M9 17.5h10.5" />
    <circle cx="5" cy="6.5" r="1" />
    <circle cx="5" cy="12" r="1" />
    <circle cx="5" cy="17.5" r="1" />
  </Icon>
);

export const HistoryIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4.5 12a7.5 7.5 0 1 0 2.2-5.3L4.5 9" />
    <path d="M4.5 4.5V9H9M12 8v4.5l3 2" />
  </Icon>
);

/** A sticker with a smile and a peeled corner: スタンプ. */
export const StampIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M20.5 13V6.5a3 3 0 0 0-3-3h-11a3 3 0 0 0-3 3v11a3 3 0 0 0 3 3H13l7.5-7.5Z" />
    <path d="M13 20.5V16a3 3 0 0 1 3-3h4.5M8.5 9.5h.01M14.5 9.5h.01M8.5 13.5c1 1 2.2 1.5 3.5 1.2" />
  </Icon>
);

export const ChartIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 4v16h16" />
    <path d="M8 16v-4M12 16V8M16 16v-6" />
  </Icon>
);

export const CalendarIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="4" y="5.5" width="16" height="14" rx="2" />
    <path d="M4 10h16M8.5 3.5v4M15.5 3.5v4" />
  </Icon>
);
