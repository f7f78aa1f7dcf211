import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { tokenizeRichText } from '../lib/rich-text-tokens';
import styles from './rich-text.module.css';

/** The path of a tag's page (tags are case-insensitive: one page, in lower case). */
export function tagPath(tag: string): string {
  return `/tags/${encodeURIComponent(tag.toLowerCase())}`;
}

/**
 * Post or comment text with its #tags, @mentions and web addresses as links, built as elements (the
 * text is never read as markup) and showing exactly what was written. Line breaks are kept by the
 * container's `white-space: pre-wrap`.
 */
export const RichText = memo(function RichText({ text }: { text: string }) {
  const nodes: ReactNode[] = tokenizeRichText(text).map((token, index) => {
    switch (token.kind) {
      case 'text':
        return token.text;
      case 'tag':
        return (
          <Link key={index} to={tagPath(token.tag)} className={styles.link}>
            {token.text}
          </Link>
        );
      case 'mention':
        return (
          <Link key={index} to={`/${encodeURIComponent(token.username)}`} className={styles.link}>
            {token.text}
          </Link>
        );
      case 'url':
        return (
          <a key={index} href={token.href} className={styles.link} rel="noopener noreferrer nofollow ugc">
            {token.text}
          </a>
        );
    }
  });
  return <>{nodes}</>;
});
