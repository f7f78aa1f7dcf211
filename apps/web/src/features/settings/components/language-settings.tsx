import { Trans, useLingui } from '@lingui/react/macro';
import { LOCALES, isLocale, type Locale, type User } from '@share-arts/contract';
import { useId } from 'react';
import { browserLocale, chooseLocale, forgetLocaleChoice } from '../../../lib/i18n';
import { useRightsSettings } from '../api/use-rights-settings';
import styles from './language-settings.module.css';

/** A language's name in that language ("日本語", "العربية"), as the platform's Intl knows it. */
function nativeName(locale: Locale): string {
  const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

const BROWSER = 'browser';

/**
 * The app's language (issue 43): switched at once, without a reload, and kept on the account, so it follows the
 * person to their other devices, their mails and the server's messages. "Your browser's" follows the browser.
 */
export function LanguageSettings({ user }: { user: User }) {
  const { t } = useLingui();
  const save = useRightsSettings();
  const hintId = useId();
  const selectId = useId();
  const chosen = user.settings?.language ?? null;
  const browser = nativeName(browserLocale());
  return (
    <section className={styles.card} aria-labelledby={`${selectId}-title`}>
      <h2 id={`${selectId}-title`} className={styles.title}>
        <Trans>Language</Trans>
      </h2>
      <div className={styles.field}>
        <label htmlFor={selectId}>
          <Trans>Language of Share Arts</Trans>
        </label>
        <select
          id={selectId}
          aria-describedby={hintId}
          value={chosen ?? BROWSER}
          disabled={save.isPending}
          onChange={(event) => {
            const value = event.target.value;
            const language = isLocale(value) ? value : null;
            void (language ? chooseLocale(language) : forgetLocaleChoice()).then(() => save.mutate({ language }));
          }}
        >
          <option value={BROWSER}>{t`Your browser's (${browser})`}</option>
          {LOCALES.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {nativeName(locale)}
            </option>
          ))}
        </select>
      </div>
      <p id={hintId} className={styles.hint}>
        <Trans>
          Menus, messages and mails are shown in this language. What artists write is always shown as they wrote it.
        </Trans>
      </p>
    </section>
  );
}
