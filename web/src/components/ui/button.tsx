import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { cx } from './class-names';
import './button.css';

type Variant = 'primary' | 'secondary' | 'accent' | 'rose' | 'quiet';

type Look = { variant?: Variant; block?: boolean; icon?: ReactNode };

const classes = ({ variant = 'primary', block }: Look, extra?: string) =>
  cx('btn', `btn--${variant}`, block && 'btn--block', extra);

export function Button({
  variant,
  block,
  icon,
  busy,
  ready = true,
  className,
  children,
  type = 'button',
  disabled,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & Look & { busy?: boolean; ready?: boolean }) {
  return (
    <button
      type={type}
      className={classes({ variant, block }, className)}
      aria-busy={busy || undefined}
      // Not ready: a prerendered form's button before the app runs (lib/use-hydrated), shown as it will be.
      disabled={disabled || !ready}
      data-waiting={ready ? undefined : ''}
      {...props}
    >
      {icon}
      <span className="btn__label">{children}</span>
    </button>
  );
}

/** A link that looks like a button (navigation stays a link for assistive tech). */
export function ButtonLink({ variant, block, icon, className, children, ...props }: LinkProps & Look) {
  return (
    <Link className={classes({ variant, block }, className)} {...props}>
      {icon}
      <span className="btn__label">{children}</span>
    </Link>
  );
}
