import { Icon, type IconProps } from './icon';

/* A talk, its messages and the forms that send or remove things. */

export const HourglassIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M7 3.5h10M7 20.5h10M8 3.5c0 4 4 5.5 4 8.5s-4 4.5-4 8.5M16 3.5c0 4-4 5.5-4 8.5s4 4.5 4 8.5" />
  </Icon>
);

export const SearchIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="10.5" cy="10.5" r="6" />
    <path d="m15 15 5 5" />
  </Icon>
);

export const ImageIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3.5" y="5" width="17" height="14" rx="2" />
    <circle cx="9" cy="10" r="1.6" />
    <path d="m4 17 4.5-4.5 3.5 3.5 2.5-2.5L20 19" />
  </Icon>
);

export const CloseIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m6.5 6.5 11 11M17.5 6.5l-11 11" />
  </Icon>
);

export const MoreIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6.5 12h.01M12 12h.01M17.5 12h.01" strokeWidth={2.6} />
  </Icon>
);

export const ReplyIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M9.5 7 4.5 12l5 5" />
    <path d="M4.5 12h9a6 6 0 0 1 6 6v.5" />
  </Icon>
);

export const PinIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M14.5 3.5 20.5 9.5l-3 1-3.5 3.5.5 4-1.5 1.5-4-4-4 4M9 10l-1.5-1.5L9 7l4-.5 1.5-3" />
  </Icon>
);

export const CopyIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="8.5" y="8.5" width="11" height="11" rx="2" />
    <path d="M15.5 8.5v-2a2 2 0 0 0-2-2h-7a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h2" />
  </Icon>
);

export const TrashIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 12.5h9l1-12.5M10 10.5v6M14 10.5v6" />
  </Icon>
);

export const RetryIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3" />
    <path d="M19.5 4.5v4h-4" />
  </Icon>
);

/** 送信取消: an arrow turning back. */
export const UndoIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M9 5.5 4.5 10 9 14.5" />
    <path d="M4.5 10h9.5a5.5 5.5 0 0 1 0 11H11" />
  </Icon>
);
