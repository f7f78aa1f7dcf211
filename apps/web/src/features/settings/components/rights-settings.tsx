import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { SENSITIVE_MEDIA, type User, type UserSettings } from '@share-arts/contract';
import { useId, useState } from 'react';
import { useRightsSettings } from '../api/use-rights-settings';
import styles from './works-visibility.module.css';

const DEFAULTS: UserSettings = {
  aiTrainingOptOut: true,
  sensitiveMedia: 'blur',
  hideAiGenerated: false,
  allowCollecting: true,
  language: null,
};

const SENSITIVE_LABELS: Record<UserSettings['sensitiveMedia'], MessageDescriptor> = {
  show: msg`Show them`,
  blur: msg`Blur them until I choose Show`,
  hide: msg`Hide them (the warning only)`,
};

/**
 * What the viewer sees and what they ask of AI crawlers: works with a content warning (show, blur, hide),
 * AI-generated works in their lists, and "Ask AI crawlers not to train on my work" (on by default).
 */
export function RightsSettings({ user }: { user: User }) {
  const { _ } = useLingui();
  const update = useRightsSettings();
  const id = useId();
  // What was chosen shows at once (a radio or checkbox that lagged behind the click would read as refused);
  // each choice is saved on its own, and the saved user replaces it once the server answered.
  const [chosen, setChosen] = useState<Partial<UserSettings>>({});
  const settings = { ...(user.settings ?? DEFAULTS), ...chosen };
  const change = (next: Partial<UserSettings>) => {
    setChosen((current) => ({ ...current, ...next }));
    update.mutate(next, { onSettled: () => setChosen({}) });
  };
  return (
    <>
      <section className={styles.card} aria-labelledby={`${id}-sensitive`}>
        <h2 id={`${id}-sensitive`} className={styles.title}>
          <Trans>Sensitive media</Trans>
        </h2>
        <fieldset className={styles.choices}>
          <legend className={styles.hint}>
            <Trans>Works the artist marked with a content warning:</Trans>
          </legend>
          {SENSITIVE_MEDIA.map((mode) => (
            <label key={mode} className={styles.option}>
              <input
                type="radio"
                name={`${id}-sensitive-media`}
                className={styles.checkbox}
                checked={settings.sensitiveMedia === mode}
                onChange={() => change({ sensitiveMedia: mode })}
              />
              <span>{_(SENSITIVE_LABELS[mode])}</span>
            </label>
          ))}
        </fieldset>
        <label className={styles.option}>
          <input
            type="checkbox"
            className={styles.checkbox}
            checked={settings.hideAiGenerated}
            onChange={(event) => change({ hideAiGenerated: event.target.checked })}
          />
          <span>
            <Trans>Hide AI-generated works</Trans>
          </span>
        </label>
        <p className={styles.hint}>
          <Trans>Works their artists label as AI-generated are left out of Home, Explore, tags and search.</Trans>
        </p>
      </section>
      <section className={styles.card} aria-labelledby={`${id}-ai`}>
        <h2 id={`${id}-ai`} className={styles.title}>
          <Trans>AI training</Trans>
        </h2>
        <label className={styles.option}>
          <input
            type="checkbox"
            className={styles.checkbox}
            checked={settings.aiTrainingOptOut}
            aria-describedby={`${id}-ai-hint`}
            onChange={(event) => change({ aiTrainingOptOut: event.target.checked })}
          />
          <span>
            <Trans>Ask AI crawlers not to train on my work</Trans>
          </span>
        </label>
        <p id={`${id}-ai-hint`} className={styles.hint}>
          <Trans>
            Your pages and pictures tell crawlers &ldquo;noai, noimageai&rdquo;, and known AI crawlers are turned away
            from the whole site. Crawlers that ignore these requests cannot be stopped by them.
          </Trans>
        </p>
      </section>
    </>
  );
}
