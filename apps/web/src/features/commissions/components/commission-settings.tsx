import {
  COMMISSION_CURRENCIES,
  COMMISSION_KINDS,
  COMMISSION_LIMITS,
  type CommissionKind,
  type Commissions,
  type CommissionsBody,
  type Post,
} from '@share-arts/contract';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { TextAreaField, TextField } from '../../../ui/field';
import card from '../../../ui/settings-card.module.css';
import { toast } from '../../../ui/toast';
import { useCommissions, useOwnWorks, useSaveCommissions } from '../api/commissions';
import { kindLabel } from '../model/format';
import styles from './commission-settings.module.css';

/** The form's fields as typed (numbers as text: an empty box is "none"). */
export interface Draft {
  open: boolean;
  kinds: CommissionKind[];
  kindsNote: string;
  slotsTotal: string;
  slotsTaken: string;
  currency: string;
  priceMin: string;
  priceMax: string;
  turnaroundDays: string;
  terms: string;
  termsUrl: string;
  languages: string;
  examples: string[];
}

const draftOf = (saved: Commissions): Draft => ({
  open: saved.open,
  kinds: saved.kinds,
  kindsNote: saved.kindsNote,
  slotsTotal: saved.slots ? String(saved.slots.total) : '',
  slotsTaken: saved.slots ? String(saved.slots.taken) : '',
  currency: saved.price?.currency ?? 'EUR',
  priceMin: saved.price ? String(saved.price.min) : '',
  priceMax: saved.price ? String(saved.price.max) : '',
  turnaroundDays: saved.turnaroundDays === null ? '' : String(saved.turnaroundDays),
  terms: saved.terms,
  termsUrl: saved.termsUrl ?? '',
  languages: saved.languages.join(', '),
  examples: saved.examples.map((example) => example._id),
});

const whole = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** The body of PUT /api/commissions from the form: the server says what is wrong (its sentences are shown). */
export function bodyOf(draft: Draft): CommissionsBody {
  const total = whole(draft.slotsTotal);
  const min = whole(draft.priceMin);
  const max = whole(draft.priceMax);
  const days = whole(draft.turnaroundDays);
  return {
    open: draft.open,
    kinds: draft.kinds,
    kindsNote: draft.kindsNote,
    slots: total === null ? null : { total, taken: whole(draft.slotsTaken) ?? 0 },
    price:
      min === null && max === null
        ? null
        : {
            currency: draft.currency as NonNullable<CommissionsBody['price']>['currency'],
            min: min ?? max!,
            max: max ?? min!,
          },
    turnaroundDays: days,
    terms: draft.terms,
    termsUrl: draft.termsUrl.trim() || null,
    languages: draft.languages
      .split(/[\s,]+/u)
      .map((tag) => tag.trim())
      .filter(Boolean),
    examples: draft.examples,
  };
}

/** The picker of example works: the artist's own newest works, chosen in order, at most six. */
function ExamplePicker({
  username,
  chosen,
  onChange,
}: {
  username: string;
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  const { t } = useLingui();
  const works = useOwnWorks(username);
  const legendId = useId();
  if (works.isPending)
    return (
      <p className={card.hint}>
        <Trans>Loading your works…</Trans>
      </p>
    );
  if (works.isError) {
    const problem = errorMessage(works.error);
    return (
      <p className={card.error}>
        <Trans>Your works could not be loaded: {problem}</Trans>
      </p>
    );
  }
  const posts = (works.data.posts as Post[]).filter((post) => !post.origin);
  if (posts.length === 0)
    return (
      <p className={card.hint}>
        <Trans>Post a work first: your examples are picked from them.</Trans>
      </p>
    );
  const full = chosen.length >= COMMISSION_LIMITS.examplesMax;
  const most = COMMISSION_LIMITS.examplesMax;
  const picked = chosen.length;
  return (
    <fieldset className={styles.fieldset} aria-describedby={legendId}>
      <legend className={styles.legend}>
        <Trans>Example works</Trans>
      </legend>
      <p id={legendId} className={card.hint}>
        <Trans>
          Up to {most}, shown in the order you pick them ({picked} picked).
        </Trans>
      </p>
      <ul className={styles.works}>
        {posts.map((post) => {
          const at = chosen.indexOf(post._id);
          const picked = at >= 0;
          const label = post.picture?.alt || post.content.slice(0, 60) || t`A work`;
          return (
            <li key={post._id}>
              <button
                type="button"
                className={styles.work}
                aria-pressed={picked}
                aria-disabled={(!picked && full) || undefined}
                onClick={() => {
                  if (picked) onChange(chosen.filter((id) => id !== post._id));
                  else if (!full) onChange([...chosen, post._id]);
                }}
              >
                {post.picture && !post.contentWarning ? (
                  <img src={post.picture.url} alt="" width={post.picture.width} height={post.picture.height} />
                ) : (
                  <span className={styles.workText}>{post.contentWarning ?? post.content.slice(0, 80)}</span>
                )}
                <span className="visually-hidden">{label}</span>
                {picked && (
                  <span className={styles.order} aria-hidden="true">
                    {at + 1}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

function CommissionForm({ saved, username }: { saved: Commissions; username: string }) {
  const { t } = useLingui();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const termsMax = COMMISSION_LIMITS.termsMax;
  const save = useSaveCommissions(username);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(bodyOf(draft), {
      onSuccess: (next) => {
        setDraft(draftOf(next));
        toast.success(next.open ? t`You are open for commissions.` : t`Your commission panel is saved.`);
      },
    });
  };
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <label className={card.option}>
        <input
          type="checkbox"
          className={card.checkbox}
          checked={draft.open}
          onChange={(event) => set('open', event.target.checked)}
        />
        <span>
          <Trans>I am open for commissions</Trans>
        </span>
      </label>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>
          <Trans>Kinds of work</Trans>
        </legend>
        <div className={styles.kinds}>
          {COMMISSION_KINDS.map((kind) => (
            <label key={kind} className={styles.kind}>
              <input
                type="checkbox"
                className={card.checkbox}
                checked={draft.kinds.includes(kind)}
                onChange={(event) =>
                  set(
                    'kinds',
                    event.target.checked ? [...draft.kinds, kind] : draft.kinds.filter((each) => each !== kind),
                  )
                }
              />
              <span>{kindLabel(kind)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <TextField
        label={t`In your own words`}
        hint={t`What you like to draw, and what you do not take.`}
        maxLength={COMMISSION_LIMITS.kindsNoteMax}
        value={draft.kindsNote}
        onChange={(event) => set('kindsNote', event.target.value)}
      />
      <div className={styles.row}>
        <TextField
          label={t`Slots offered`}
          hint={t`Empty: you do not count slots.`}
          type="number"
          inputMode="numeric"
          min={1}
          max={COMMISSION_LIMITS.slotsMax}
          value={draft.slotsTotal}
          onChange={(event) => set('slotsTotal', event.target.value)}
        />
        <TextField
          label={t`Slots taken`}
          type="number"
          inputMode="numeric"
          min={0}
          max={COMMISSION_LIMITS.slotsMax}
          value={draft.slotsTaken}
          onChange={(event) => set('slotsTaken', event.target.value)}
        />
      </div>
      <div className={styles.row}>
        <div className={styles.select}>
          <label htmlFor={`${username}-currency`}>
            <Trans>Currency</Trans>
          </label>
          <select
            id={`${username}-currency`}
            value={draft.currency}
            onChange={(event) => set('currency', event.target.value)}
          >
            {COMMISSION_CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label={t`Lowest price`}
          hint={t`Whole units (50 for 50 €).`}
          type="number"
          inputMode="numeric"
          min={0}
          value={draft.priceMin}
          onChange={(event) => set('priceMin', event.target.value)}
        />
        <TextField
          label={t`Highest price`}
          type="number"
          inputMode="numeric"
          min={0}
          value={draft.priceMax}
          onChange={(event) => set('priceMax', event.target.value)}
        />
      </div>
      <TextField
        label={t`Typical turnaround, in days`}
        type="number"
        inputMode="numeric"
        min={1}
        max={COMMISSION_LIMITS.turnaroundDaysMax}
        value={draft.turnaroundDays}
        onChange={(event) => set('turnaroundDays', event.target.value)}
      />
      <TextAreaField
        label={t`Terms`}
        hint={t`Up to ${termsMax} characters: payment, rights, what you need from a client.`}
        rows={4}
        maxLength={COMMISSION_LIMITS.termsMax}
        value={draft.terms}
        onChange={(event) => set('terms', event.target.value)}
      />
      <TextField
        label={t`Link to your full terms`}
        hint={t`An https:// address.`}
        type="url"
        inputMode="url"
        value={draft.termsUrl}
        onChange={(event) => set('termsUrl', event.target.value)}
      />
      <TextField
        label={t`Languages you work in`}
        hint={t`Language codes separated by commas, like en, fr, pt-BR.`}
        value={draft.languages}
        onChange={(event) => set('languages', event.target.value)}
      />
      <ExamplePicker username={username} chosen={draft.examples} onChange={(ids) => set('examples', ids)} />
      {save.isError && (
        <p className={card.error} role="alert">
          {errorMessage(save.error)}
        </p>
      )}
      <div>
        <Button type="submit" aria-disabled={save.isPending || undefined}>
          {save.isPending ? t`Saving…` : t`Save commission panel`}
        </Button>
      </div>
    </form>
  );
}

/** Settings' "Open for commissions" card (issue 42), a lazy chunk of the settings page. */
export default function CommissionSettings() {
  const titleId = useId();
  const { data: me } = useCurrentUser();
  const username = me?.username ?? '';
  const saved = useCommissions(username);
  const loadProblem = saved.isError ? errorMessage(saved.error) : '';
  return (
    <section className={card.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={card.title}>
        <Trans>Open for commissions</Trans>
      </h2>
      <p className={card.hint}>
        <Trans>
          Say whether you take commissions and on what terms: your profile shows it, your works carry an “Open” badge,
          and followers who asked are told when you open.
        </Trans>
      </p>
      {saved.isPending ? (
        <p className={card.hint}>
          <Trans>Loading…</Trans>
        </p>
      ) : saved.isError ? (
        <p className={card.error}>
          <Trans>Your commission panel could not be loaded: {loadProblem}</Trans>
        </p>
      ) : (
        <CommissionForm key={saved.data.updatedAt ?? 'new'} saved={saved.data} username={username} />
      )}
    </section>
  );
}
