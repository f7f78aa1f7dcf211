import { APP_NAME } from '@share-arts/contract';
import { Search, UserRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { BrandMark } from '../../ui/brand-mark';
import styles from './header.module.css';
import { ThemeToggle } from './theme-toggle';

export function Header() {
  // Search results arrive with the Explore issue; until then the box must not reload the page.
  const onSearch = (event: FormEvent<HTMLFormElement>) => event.preventDefault();

  return (
    <header className={styles.header}>
      <Link to="/" className={styles.brand}>
        <BrandMark />
        <span>{APP_NAME}</span>
      </Link>
      <form role="search" className={styles.search} onSubmit={onSearch}>
        <Search className={styles.searchIcon} aria-hidden="true" size="1em" />
        <input type="search" className={styles.searchInput} placeholder="Search..." aria-label="Search" />
      </form>
      <div className={styles.actions}>
        <ThemeToggle />
        <Link to="/settings" className={styles.iconLink} aria-label="Settings">
          <UserRound aria-hidden="true" size="1.4em" />
        </Link>
      </div>
    </header>
  );
}
