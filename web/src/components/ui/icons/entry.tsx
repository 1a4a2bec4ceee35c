import { Icon, type IconProps } from './icon';

/* The intro pages. */

export const PhoneIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="7" y="3" width="10" height="18" rx="2" />
    <path d="M11 17.5h2" />
  </Icon>
);

export const ShieldIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 3.5 5 6.2v5.3c0 4.2 2.9 7.7 7 9 4.1-1.3 7-4.8 7-9V6.2l-7-2.7Z" />
    <path d="m9 12 2.2 2.2L15.5 10" />
  </Icon>
);
