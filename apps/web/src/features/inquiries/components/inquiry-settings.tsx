import type { InquiryAccepting } from '@share-arts/contract';
import { useId } from 'react';
import { errorMessage } from '../../../lib/api-client';
import card from '../../../ui/settings-card.module.css';
import { useChangeInquirySettings, useInquirySettings } from '../api/inquiries-api';

const CHOICES: { value: InquiryAccepting; label: string }[] = [
  { value: 'everyone', label: 'Everyone signed in' },
  { value: 'followers', label: 'Only people who follow me' },
  { value: 'closed', label: 'Nobody: inquiries are closed' },
];

/** Who may send the artist inquiries, and whether a new one is mailed to them. */
export function InquirySettingsCard() {
  const settings = useInquirySettings();
  const change = useChangeInquirySettings();
  const titleId = useId();
  const name = useId();
  const busy = change.isPending || !settings.data;
  return (
    <section className={card.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={card.title}>
        Who may send you inquiries
      </h2>
      <fieldset disabled={busy} style={{ border: 0, padding: 0, margin: 0, display: 'grid', gap: 'var(--space-2)' }}>
        <legend className={card.hint}>Inquiries you already have stay.</legend>
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
            {choice.label}
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
        Also mail me each new inquiry
      </label>
      {(settings.error || change.error) && (
        <p className={card.error} role="alert">
          {errorMessage(settings.error ?? change.error)}
        </p>
      )}
    </section>
  );
}
