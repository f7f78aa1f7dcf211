import type { InquiryAccepting } from '@share-arts/contract';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { errorMessage } from '../../../lib/api-client';
import card from '../../../ui/settings-card.module.css';
import { useChangeInquirySettings, useInquirySettings } from '../api/inquiries-api';

const CHOICES: { value: InquiryAccepting; label: MessageDescriptor }[] = [
  { value: 'everyone', label: msg`Everyone signed in` },
  { value: 'followers', label: msg`Only people who follow me` },
  { value: 'closed', label: msg`Nobody: inquiries are closed` },
];

/** Who may send the artist inquiries, and whether a new one is mailed to them. */
export function InquirySettingsCard() {
  const { i18n } = useLingui();
  const settings = useInquirySettings();
  const change = useChangeInquirySettings();
  const titleId = useId();
  const name = useId();
  const busy = change.isPending || !settings.data;
  return (
    <section className={card.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={card.title}>
        <Trans>Who may send you inquiries</Trans>
      </h2>
      <fieldset disabled={busy} style={{ border: 0, padding: 0, margin: 0, display: 'grid', gap: 'var(--space-2)' }}>
        <legend className={card.hint}>
          <Trans>Inquiries you already have stay.</Trans>
        </legend>
        {CHOICES.map((choice) => (
          <label key={choice.value} className={card.option}>
            <input
              type="radio"
              className={card.checkbox}
              name={name}
              value={choice.value}
              checked={settings.data?.accepting === choice.value}
              onChange={() => change.mutate({ accepting: choice.value })}
            />
            {i18n._(choice.label)}
          </label>
        ))}
      </fieldset>
      <label className={card.option}>
        <input
          type="checkbox"
          className={card.checkbox}
          checked={settings.data?.mail ?? false}
          disabled={busy}
          onChange={(event) => change.mutate({ mail: event.target.checked })}
        />
        <Trans>Also mail me each new inquiry</Trans>
      </label>
      {(settings.error || change.error) && (
        <p className={card.error} role="alert">
          {errorMessage(settings.error ?? change.error)}
        </p>
      )}
    </section>
  );
}
