import { LOCALES, STORAGE_KEYS } from '@share-arts/contract';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import styles from './language-field.module.css';

/**
 * The language a post's text is in (issue 43): said by its artist, never guessed or translated. The post's text
 * carries it as `lang` (screen readers read it in its own voice) and its Note as `contentMap` (other servers).
 * The composer offers the languages the app speaks, each by its own name, and "Not said".
 */

/** A language tag by its own name (日本語, العربية, português (Brasil)); the tag itself where the browser knows none. */
export function ownName(tag: string): string {
  try {
    return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/**
 * The language a new post starts with: the one this person last chose in the composer on this device (`''`: they
 * chose "Not said"), else the app's language now.
 */
export function initialPostLanguage(stored: string | null, appLocale: string): string | null {
  if (stored === null) return appLocale;
  return stored === '' ? null : stored;
}

/** The last choice kept on this device, as `initialPostLanguage` reads it (null: none yet, or no storage). */
export function storedPostLanguage(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.postLanguage);
  } catch {
    return null;
  }
}

function rememberPostLanguage(language: string | null): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.postLanguage, language ?? '');
  } catch {
    // Private browsing without storage: the next post starts from the app's language.
  }
}

interface LanguageFieldProps {
  value: string | null;
  onChange: (language: string | null) => void;
  disabled?: boolean;
}

export function LanguageField({ value, onChange, disabled = false }: LanguageFieldProps) {
  const { t } = useLingui();
  const id = useId();
  // A post may be in a language the app does not speak (said through the Mastodon API, or from another server):
  // an edit keeps it on offer.
  const choices: string[] =
    value !== null && !LOCALES.some((locale) => locale === value) ? [...LOCALES, value] : [...LOCALES];
  return (
    <div className={styles.field}>
      <label htmlFor={`${id}-language`} className={styles.label}>
        <Trans>Language of the text</Trans>
      </label>
      <select
        id={`${id}-language`}
        className={styles.select}
        value={value ?? ''}
        disabled={disabled}
        onChange={(event) => {
          const next = event.target.value || null;
          rememberPostLanguage(next);
          onChange(next);
        }}
      >
        {choices.map((language) => (
          <option key={language} value={language} lang={language}>
            {ownName(language)}
          </option>
        ))}
        <option value="">{t`Not said`}</option>
      </select>
    </div>
  );
}
