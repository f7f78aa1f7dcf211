import type { ComponentProps } from 'react';
import { Link, type LinkProps } from 'react-router';
import styles from './button.module.css';

type Variant = 'primary' | 'secondary' | 'danger' | 'icon';

interface StyleProps {
  variant?: Variant;
  block?: boolean;
}

function classes({ variant = 'primary', block = false }: StyleProps, extra?: string): string {
  return [styles.button, styles[variant], block ? styles.block : '', extra ?? ''].filter(Boolean).join(' ');
}

type ButtonProps = ComponentProps<'button'> & StyleProps;

export function Button({ variant, block, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={classes({ variant, block }, className)} {...rest} />;
}

type ButtonLinkProps = LinkProps & StyleProps;

/** A link that looks like a button (navigation stays a link for assistive tech). */
export function ButtonLink({ variant, block, className, ...rest }: ButtonLinkProps) {
  return <Link className={classes({ variant, block }, className)} {...rest} />;
}
