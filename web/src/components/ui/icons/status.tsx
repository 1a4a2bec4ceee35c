import { Icon, type IconProps } from './icon';

/* Confirmations: a toast, a sent form, a chosen group. */

export const CheckCircleIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="m8.2 12.3 2.6 2.6 5-5.2" />
  </Icon>
);
