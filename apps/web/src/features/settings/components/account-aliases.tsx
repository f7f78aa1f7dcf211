import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { RemotePerson } from '@share-arts/contract';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { httpUrl } from '../../../lib/safe-url';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { Handle } from '../../../ui/handle';
import { aliasQuery, useAccountAliases, useSaveAccountAliases, type AliasesChange } from '../api/use-account-aliases';
import styles from './account-aliases.module.css';

/*
 * The contract's ACCOUNT_ALIASES_MAX and the `maxLength` of an account in AccountAliasesBody, copied: a constant
 * read from a schema module lands in the shell's chunk, on the feed's path (the test checks they still agree).
 */
export const ALIASES_MAX = 5;
export const ACCOUNT_MAX_LENGTH = 320;

/** Read when used, so they are in the current language. */
export const ALIAS_PROBLEMS = {
  get empty() {
    return t`Type the handle of your old account, like @you@mastodon.social.`;
  },
  get tooLong() {
    return t`A handle or an address is at most ${ACCOUNT_MAX_LENGTH} characters.`;
  },
  already: (shown: string) => t`${shown} is already named here.`,
  get full() {
    return t`You have named ${ALIASES_MAX} accounts, the most there can be: remove one to name another.`;
  },
};

/** An alias as people read it: `@bob@host`, or the address alone when the server knew no handle. */
const shown = (alias: RemotePerson) => (alias.handle.includes('@') ? `@${alias.handle}` : alias.url);

/** `@bob@Host.example`, `bob@host.example` and `https://host.example/@bob/` all read as one account. */
function sameAccount(alias: RemotePerson, typed: string): boolean {
  const bare = typed.trim().replace(/^@/, '').replace(/\/+$/, '').toLowerCase();
  return bare === alias.handle.toLowerCase() || bare === alias.url.replace(/\/+$/, '').toLowerCase();
}

/** The whole list to send once `draft` is added, or why it cannot be. */
export function withAdded(aliases: RemotePerson[], draft: string): { accounts: string[] } | { problem: string } {
  const typed = draft.trim();
  if (!typed) return { problem: ALIAS_PROBLEMS.empty };
  if (typed.length > ACCOUNT_MAX_LENGTH) return { problem: ALIAS_PROBLEMS.tooLong };
  const named = aliases.find((alias) => sameAccount(alias, typed));
  if (named) return { problem: ALIAS_PROBLEMS.already(shown(named)) };
  if (aliases.length >= ALIASES_MAX) return { problem: ALIAS_PROBLEMS.full };
  return { accounts: [...aliases.map(aliasQuery), typed] };
}

/** The whole list to send once `removed` is taken out. */
export function withoutAlias(aliases: RemotePerson[], removed: RemotePerson): string[] {
  return aliases.filter((alias) => alias.url !== removed.url).map(aliasQuery);
}

export interface AccountAliasesViewProps {
  /** The id of the box that names another account. */
  inputId: string;
  /** The artist's own handle here (`ada@share.example`), to give on the old server. */
  ownHandle: string;
  aliases: RemotePerson[] | undefined;
  loadError?: string;
  onRetry: () => void;
  draft: string;
  onDraft: (value: string) => void;
  onAdd: () => void;
  onRemove: (alias: RemotePerson) => void;
  /** The change being saved, if any: every change waits for it (each one sends the whole list). */
  pending?: AliasesChange;
  problem?: string;
  announcement: string;
}

/** The card itself, drawn from its state (AccountAliases holds it). */
export function AccountAliasesView({
  inputId,
  ownHandle,
  aliases,
  loadError,
  onRetry,
  draft,
  onDraft,
  onAdd,
  onRemove,
  pending,
  problem,
  announcement,
}: AccountAliasesViewProps) {
  const { t } = useLingui();
  const id = useId();
  const titleId = `${id}-title`;
  const problemId = `${id}-problem`;
  const fullId = `${id}-full`;
  const full = (aliases?.length ?? 0) >= ALIASES_MAX;
  const adding = pending !== undefined && pending.removing === undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // aria-disabled, not disabled, while a change is saved: the focused button keeps the keyboard's focus.
    if (!pending) onAdd();
  };

  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        <Trans>Moving here from another server</Trans>
      </h2>
      <p className={styles.hint}>
        <Trans>
          First name your old account here. Then start the move on your old server (on Mastodon: Preferences → Account →
          “Move to a different account”) giving{' '}
          <strong className={styles.ownHandle}>
            <Handle username={ownHandle} />
          </strong>
          , and your followers there will follow you here.
        </Trans>
      </p>
      {aliases === undefined ? (
        loadError === undefined ? (
          <p role="status">
            <Trans>Loading…</Trans>
          </p>
        ) : (
          <div role="alert">
            <p>
              <Trans>Your accounts on other servers could not be loaded: {loadError}</Trans>
            </p>
            <Button variant="secondary" onClick={onRetry}>
              <Trans>Try again</Trans>
            </Button>
          </div>
        )
      ) : (
        <>
          {aliases.length === 0 ? (
            <p className={styles.hint}>
              <Trans>No account named yet.</Trans>
            </p>
          ) : (
            <ul className={styles.list} aria-label={t`Your accounts on other servers`}>
              {aliases.map((alias) => {
                const name = shown(alias);
                const removing = pending?.removing === alias.url;
                return (
                  <li key={alias.url} className={styles.row}>
                    <a className={styles.name} href={httpUrl(alias.url)} target="_blank" rel="noopener nofollow">
                      {alias.handle.includes('@') ? <Handle username={alias.handle} /> : alias.url}
                    </a>
                    <Button
                      variant="secondary"
                      aria-label={t`Remove ${name}`}
                      aria-disabled={pending ? true : undefined}
                      onClick={() => {
                        if (!pending) onRemove(alias);
                      }}
                    >
                      {removing ? t`Removing…` : t`Remove`}
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          <form className={styles.addForm} onSubmit={onSubmit} noValidate>
            <TextField
              id={inputId}
              label={t`Your old account`}
              placeholder="@you@mastodon.social"
              hint={t`Its handle, or the address of its profile.`}
              value={draft}
              maxLength={ACCOUNT_MAX_LENGTH}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              disabled={full}
              aria-invalid={problem ? true : undefined}
              aria-describedby={[problem ? problemId : '', full ? fullId : '', `${inputId}-hint`]
                .filter(Boolean)
                .join(' ')}
              onChange={(event) => onDraft(event.target.value)}
            />
            <Button type="submit" disabled={full} aria-disabled={pending ? true : undefined}>
              {adding ? t`Adding…` : t`Add`}
            </Button>
          </form>
          {full && (
            <p id={fullId} className={styles.hint}>
              {ALIAS_PROBLEMS.full}
            </p>
          )}
        </>
      )}
      {/* Present from the start, so that what is put in them is read out. */}
      <div role="alert" id={problemId} className={styles.error}>
        {problem}
      </div>
      <div role="status" aria-live="polite" className={styles.announcement}>
        {announcement}
      </div>
    </section>
  );
}

/**
 * Settings → Account's "Moving here from another server" (issue 40): the artist names their accounts elsewhere, so
 * that this account says it is also them and their old server can move their followers here.
 */
export function AccountAliases({ username }: { username: string }) {
  const query = useAccountAliases();
  const save = useSaveAccountAliases();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [announcement, setAnnouncement] = useState('');
  const inputId = useId();
  // Raised once a removal is saved: its Remove button is gone, so the keyboard's focus goes on to the box that
  // names another (after the render that may have enabled it again, the list being no longer full).
  const [focusInput, setFocusInput] = useState(0);
  useEffect(() => {
    if (focusInput) document.getElementById(inputId)?.focus();
  }, [focusInput, inputId]);
  const aliases = query.data;
  const host = globalThis.location?.host ?? '';

  const onAdd = () => {
    if (!aliases) return;
    const next = withAdded(aliases, draft);
    setAnnouncement('');
    if ('problem' in next) {
      setProblem(next.problem);
      return;
    }
    setProblem(undefined);
    save.mutate(next, {
      onSuccess: ({ aliases: saved }) => {
        setDraft('');
        const added = saved.find((alias) => !aliases.some((before) => before.url === alias.url));
        const name = added ? shown(added) : '';
        setAnnouncement(
          added
            ? t`${name} is named here. You can now start the move on your old server.`
            : t`That account was already named here.`,
        );
      },
      // The draft stays, to be corrected and sent again.
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  const onRemove = (alias: RemotePerson) => {
    if (!aliases) return;
    setProblem(undefined);
    setAnnouncement('');
    const name = shown(alias);
    save.mutate(
      { accounts: withoutAlias(aliases, alias), removing: alias.url },
      {
        onSuccess: () => {
          setAnnouncement(t`${name} is no longer named here.`);
          setFocusInput((count) => count + 1);
        },
        onError: (error) => {
          const reason = errorMessage(error);
          setProblem(t`${name} could not be removed: ${reason}`);
        },
      },
    );
  };

  return (
    <AccountAliasesView
      inputId={inputId}
      ownHandle={`${username}@${host}`}
      aliases={aliases}
      loadError={query.isError ? errorMessage(query.error) : undefined}
      onRetry={() => void query.refetch()}
      draft={draft}
      onDraft={(value) => {
        setDraft(value);
        setProblem(undefined);
      }}
      onAdd={onAdd}
      onRemove={onRemove}
      pending={save.isPending ? save.variables : undefined}
      problem={problem}
      announcement={announcement}
    />
  );
}
