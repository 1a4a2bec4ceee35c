import { Icon, type IconProps } from './icon';

/* A member's home menu and footer, and the logout button: in the member area's first load (scripts/chunk-groups.ts). */

export const HomeIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M3.5 10.5 12 4l8.5 6.5" />
    <path d="M5.5 9v10.5h13V9" />
    <path d="M10 19.5v-5.5h4v5.5" />
  </Icon>
);

export const ChatIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M20 12.2c0 3.8-3.6 6.8-8 6.8-1 0-2-.2-2.9-.5L4.5 20l1.3-3.6C4.7 15.2 4 13.8 4 12.2 4 8.4 7.6 5.4 12 5.4s8 3 8 6.8Z" />
    <path d="M8.5 12.2h.01M12 12.2h.01M15.5 12.2h.01" strokeWidth={2.2} />
  </Icon>
);

export const ChatsIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M15.5 9.8c0 3-2.8 5.3-6.3 5.3-.8 0-1.5-.1-2.2-.3L3.5 16l1-2.7C3.6 12.4 3 11.2 3 9.8 3 6.8 5.8 4.5 9.2 4.5s6.3 2.3 6.3 5.3Z" />
    <path d="M17.7 9.1c2 .8 3.3 2.5 3.3 4.4 0 1.2-.5 2.3-1.4 3.2l.9 2.6-3.2-1.1c-.7.2-1.4.3-2.1.3-1.8 0-3.5-.7-4.6-1.7" />
  </Icon>
);

export const NewsIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="4" y="4" width="16" height="16" rx="2" />
    <path d="M8 8.5h8M8 12h8M8 15.5h5" />
  </Icon>
);

export const MemberIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="5.5" width="18" height="13" rx="2" />
    <circle cx="9" cy="11" r="2" />
    <path d="M6 15.5c.6-1.3 1.7-2 3-2s2.4.7 3 2M14.5 10h3.5M14.5 13.5h3.5" />
  </Icon>
);

export const PersonIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="8.5" r="3.5" />
    <path d="M5 19.5c1.2-3.2 3.8-5 7-5s5.8 1.8 7 5" />
  </Icon>
);

export const LogoutIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M14 4.5H6.5a1 1 0 0 0-1 1v13a1 1 0 0 0 1 1H14" />
    <path d="M10.5 12h10M17 8.5l3.5 3.5-3.5 3.5" />
  </Icon>
);
