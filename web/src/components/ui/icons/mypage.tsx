import { Icon, type IconProps } from './icon';

/* A member's own page. */

export const CourseIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 6.5C10.3 5 7.8 4.5 4.5 4.5v13c3.3 0 5.8.5 7.5 2 1.7-1.5 4.2-2 7.5-2v-13c-3.3 0-5.8.5-7.5 2Z" />
    <path d="M12 6.5v13" />
  </Icon>
);

export const CameraIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 8.5a1.5 1.5 0 0 1 1.5-1.5h2.3L9.3 5h5.4l1.5 2h2.3A1.5 1.5 0 0 1 20 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 17.5Z" />
    <circle cx="12" cy="12.8" r="3.2" />
  </Icon>
);

export const ExternalIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M13.5 4.5h6v6M19.5 4.5 11 13" />
    <path d="M17.5 13.5v5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1v-11a1 1 0 0 1 1-1h5" />
  </Icon>
);
