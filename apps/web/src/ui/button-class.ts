import styles from './button.module.css';

type Variant = 'primary' | 'secondary' | 'danger' | 'icon';

export interface ButtonStyle {
  variant?: Variant;
  block?: boolean;
}

/**
 * A button's classes. Apart from button.tsx (which imports the router for its links) for an element that is
 * neither a `<button>` nor a router link: /landing's link, on a page drawn without the router.
 */
export function buttonClassName({ variant = 'primary', block = false }: ButtonStyle, extra?: string): string {
  return [styles.button, styles[variant], block ? styles.block : '', extra ?? ''].filter(Boolean).join(' ');
}
