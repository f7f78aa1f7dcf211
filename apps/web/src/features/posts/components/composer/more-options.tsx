import { CONTENT_WARNING_MAX, CONTENT_WARNINGS, LICENCES, type Post } from '@share-arts/contract';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { PostRightsDraft } from '../../api/save-post';
import styles from './more-options.module.css';
import { licenceName } from '../../model/licence-names';

/** The warning choices: none, the offered ones, or the author's own words. */
type WarningChoice = 'none' | (typeof CONTENT_WARNINGS)[number] | 'other';

const WARNING_CHOICES: { value: WarningChoice; label: MessageDescriptor }[] = [
  { value: 'none', label: msg`None` },
  { value: 'nudity', label: msg`Nudity` },
  { value: 'blood', label: msg`Blood` },
  { value: 'flashing', label: msg`Flashing lights` },
  { value: 'other', label: msg`Other…` },
];

const COMMENT_CHOICES: { value: Post['commentPolicy']; label: MessageDescriptor }[] = [
  { value: 'everyone', label: msg`Everyone` },
  { value: 'following', label: msg`People I follow` },
  { value: 'nobody', label: msg`Nobody (comments off)` },
];

/** The draft's rights as the composer keeps them: the warning split into its choice and its own words. */
export interface RightsState extends Omit<PostRightsDraft, 'contentWarning'> {
  warning: WarningChoice;
  warningText: string;
}

export function initialRights(post: PostRightsDraft | undefined): RightsState {
  const warning = post?.contentWarning ?? null;
  const offered = CONTENT_WARNINGS.find((name) => name === warning);
  return {
    warning: warning === null ? 'none' : (offered ?? 'other'),
    warningText: warning !== null && !offered ? warning : '',
    commentPolicy: post?.commentPolicy ?? 'everyone',
    licence: post?.licence ?? 'all-rights-reserved',
    aiGenerated: post?.aiGenerated ?? false,
    downloadable: post?.downloadable ?? false,
  };
}

/** What is sent: the warning as one value (an empty "Other" is no warning). */
export function rightsDraft({ warning, warningText, ...rest }: RightsState): PostRightsDraft {
  const contentWarning = warning === 'none' ? null : warning === 'other' ? warningText.trim() || null : warning;
  return { contentWarning, ...rest };
}

export const sameRights = (a: RightsState, b: RightsState): boolean =>
  JSON.stringify(rightsDraft(a)) === JSON.stringify(rightsDraft(b));

interface MoreOptionsProps {
  value: RightsState;
  onChange: (next: RightsState) => void;
  disabled?: boolean;
}

/**
 * The composer's "More options", folded away: a content warning, who can comment, the licence, the
 * AI-generated label and whether anyone may download the originals.
 */
export function MoreOptions({ value, onChange, disabled = false }: MoreOptionsProps) {
  const { t, i18n } = useLingui();
  const id = useId();
  const set = (change: Partial<RightsState>) => onChange({ ...value, ...change });
  const ccLicence = value.licence !== 'all-rights-reserved';
  const summary = [
    value.warning !== 'none' && t`content warning`,
    value.commentPolicy !== 'everyone' && t`comments limited`,
    ccLicence && licenceName(value.licence),
    value.aiGenerated && t`AI-generated`,
  ].filter((part): part is string => typeof part === 'string');
  const chosen = new Intl.ListFormat(i18n.locale, { type: 'unit', style: 'short' }).format(summary);
  return (
    <details className={styles.details} open={summary.length > 0 || undefined}>
      <summary className={styles.summary}>
        <Trans>More options</Trans>
        {summary.length > 0 && (
          <span className={styles.chosen}>
            {' '}
            <Trans>({chosen})</Trans>
          </span>
        )}
      </summary>
      <div className={styles.grid}>
        <div className={styles.field}>
          <label htmlFor={`${id}-warning`}>
            <Trans>Content warning</Trans>
          </label>
          <select
            id={`${id}-warning`}
            value={value.warning}
            disabled={disabled}
            onChange={(event) => set({ warning: event.target.value as WarningChoice })}
          >
            {WARNING_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {i18n._(choice.label)}
              </option>
            ))}
          </select>
          {value.warning === 'other' && (
            <>
              <label htmlFor={`${id}-warning-text`} className="visually-hidden">
                <Trans>Your own warning</Trans>
              </label>
              <input
                id={`${id}-warning-text`}
                type="text"
                value={value.warningText}
                maxLength={CONTENT_WARNING_MAX}
                placeholder={t`For example: spiders`}
                disabled={disabled}
                onChange={(event) => set({ warningText: event.target.value })}
              />
            </>
          )}
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-comments`}>
            <Trans>Who can comment</Trans>
          </label>
          <select
            id={`${id}-comments`}
            value={value.commentPolicy}
            disabled={disabled}
            onChange={(event) => set({ commentPolicy: event.target.value as Post['commentPolicy'] })}
          >
            {COMMENT_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {i18n._(choice.label)}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-licence`}>
            <Trans>Licence</Trans>
          </label>
          <select
            id={`${id}-licence`}
            value={value.licence}
            disabled={disabled}
            onChange={(event) => set({ licence: event.target.value as Post['licence'] })}
          >
            {LICENCES.map((licence) => (
              <option key={licence} value={licence}>
                {licenceName(licence)}
              </option>
            ))}
          </select>
        </div>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={value.aiGenerated}
            disabled={disabled}
            onChange={(event) => set({ aiGenerated: event.target.checked })}
          />
          <span>
            <Trans>AI-generated work</Trans>
          </span>
        </label>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={ccLicence || value.downloadable}
            disabled={disabled || ccLicence}
            aria-describedby={ccLicence ? `${id}-download-hint` : undefined}
            onChange={(event) => set({ downloadable: event.target.checked })}
          />
          <span>
            <Trans>Allow download of the originals</Trans>
          </span>
        </label>
        {ccLicence && (
          <p id={`${id}-download-hint`} className={styles.hint}>
            <Trans>A Creative Commons licence lets anyone download them.</Trans>
          </p>
        )}
      </div>
    </details>
  );
}
