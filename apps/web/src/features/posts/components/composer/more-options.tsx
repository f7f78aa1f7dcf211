import { CONTENT_WARNING_MAX, CONTENT_WARNINGS, LICENCE_INFO, LICENCES, type Post } from '@share-arts/contract';
import { useId } from 'react';
import type { PostRightsDraft } from '../../api/save-post';
import styles from './more-options.module.css';

/** The warning choices: none, the offered ones, or the author's own words. */
type WarningChoice = 'none' | (typeof CONTENT_WARNINGS)[number] | 'other';

const WARNING_CHOICES: { value: WarningChoice; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'nudity', label: 'Nudity' },
  { value: 'blood', label: 'Blood' },
  { value: 'flashing', label: 'Flashing lights' },
  { value: 'other', label: 'Other…' },
];

const COMMENT_CHOICES: { value: Post['commentPolicy']; label: string }[] = [
  { value: 'everyone', label: 'Everyone' },
  { value: 'following', label: 'People I follow' },
  { value: 'nobody', label: 'Nobody (comments off)' },
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
  const id = useId();
  const set = (change: Partial<RightsState>) => onChange({ ...value, ...change });
  const ccLicence = value.licence !== 'all-rights-reserved';
  const summary = [
    value.warning !== 'none' && 'content warning',
    value.commentPolicy !== 'everyone' && 'comments limited',
    ccLicence && LICENCE_INFO[value.licence].name,
    value.aiGenerated && 'AI-generated',
  ].filter(Boolean);
  return (
    <details className={styles.details} open={summary.length > 0 || undefined}>
      <summary className={styles.summary}>
        More options
        {summary.length > 0 && <span className={styles.chosen}> ({summary.join(', ')})</span>}
      </summary>
      <div className={styles.grid}>
        <div className={styles.field}>
          <label htmlFor={`${id}-warning`}>Content warning</label>
          <select
            id={`${id}-warning`}
            value={value.warning}
            disabled={disabled}
            onChange={(event) => set({ warning: event.target.value as WarningChoice })}
          >
            {WARNING_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
          {value.warning === 'other' && (
            <>
              <label htmlFor={`${id}-warning-text`} className="visually-hidden">
                Your own warning
              </label>
              <input
                id={`${id}-warning-text`}
                type="text"
                value={value.warningText}
                maxLength={CONTENT_WARNING_MAX}
                placeholder="For example: spiders"
                disabled={disabled}
                onChange={(event) => set({ warningText: event.target.value })}
              />
            </>
          )}
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-comments`}>Who can comment</label>
          <select
            id={`${id}-comments`}
            value={value.commentPolicy}
            disabled={disabled}
            onChange={(event) => set({ commentPolicy: event.target.value as Post['commentPolicy'] })}
          >
            {COMMENT_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-licence`}>Licence</label>
          <select
            id={`${id}-licence`}
            value={value.licence}
            disabled={disabled}
            onChange={(event) => set({ licence: event.target.value as Post['licence'] })}
          >
            {LICENCES.map((licence) => (
              <option key={licence} value={licence}>
                {LICENCE_INFO[licence].name}
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
          <span>AI-generated work</span>
        </label>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={ccLicence || value.downloadable}
            disabled={disabled || ccLicence}
            aria-describedby={ccLicence ? `${id}-download-hint` : undefined}
            onChange={(event) => set({ downloadable: event.target.checked })}
          />
          <span>Allow download of the originals</span>
        </label>
        {ccLicence && (
          <p id={`${id}-download-hint`} className={styles.hint}>
            A Creative Commons licence lets anyone download them.
          </p>
        )}
      </div>
    </details>
  );
}
