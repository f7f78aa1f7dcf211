import type { ComponentProps } from 'react';
import { Link, type LinkProps } from 'react-router';
import { buttonClassName, type ButtonStyle as StyleProps } from './button-class';

type ButtonProps = ComponentProps<'button'> & StyleProps;

export function Button({ variant, block, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClassName({ variant, block }, className)} {...rest} />;
}

type ButtonLinkProps = LinkProps & StyleProps;

/** A link that looks like a button (navigation stays a link for assistive tech). */
export function ButtonLink({ variant, block, className, ...rest }: ButtonLinkProps) {
  return <Link className={buttonClassName({ variant, block }, className)} {...rest} />;
}
