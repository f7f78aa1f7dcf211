import styles from './page-heading.module.css';

interface PageHeadingProps {
  title: string;
  description?: string;
}

/** The page's one h1 with an optional line under it. */
export function PageHeading({ title, description }: PageHeadingProps) {
  return (
    <header className={styles.heading}>
      <h1 className={styles.title}>{title}</h1>
      {description && <p className={styles.description}>{description}</p>}
    </header>
  );
}
