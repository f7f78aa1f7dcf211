import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useAddMutedWord, useMutedWords, useRemoveMutedWord } from '../api/muted-words';
import styles from './safety-settings.module.css';

/** The contract's SAFETY_LIMITS.mutedWordMax (its schema module stays out of the browser's chunks). */
const MUTED_WORD_MAX = 100;

/** Settings' "Muted words and tags": posts with one of them stay out of your lists. */
export function MutedWords() {
  const { t } = useLingui();
  const words = useMutedWords();
  const add = useAddMutedWord();
  const remove = useRemoveMutedWord();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const word = draft.trim();
    if (!word) {
      setProblem(t`Write a word, or a tag like #spoilers.`);
      return;
    }
    if (word.length > MUTED_WORD_MAX) {
      setProblem(t`A muted word is at most ${MUTED_WORD_MAX} characters.`);
      return;
    }
    setProblem(undefined);
    add.mutate(word, {
      onSuccess: () => setDraft(''),
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  const list = words.data ?? [];
  const loadProblem = words.isError ? errorMessage(words.error) : '';
  return (
    <section className={styles.card} aria-labelledby="muted-words-title">
      <h2 id="muted-words-title" className={styles.title}>
        <Trans>Muted words and tags</Trans>
      </h2>
      <p className={styles.text}>
        <Trans>
          Posts containing one of these (in any letter case) stay out of your lists; opened by a link, they ask first.
        </Trans>
      </p>
      <form className={styles.addForm} onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Word or #tag`}
          value={draft}
          maxLength={MUTED_WORD_MAX}
          error={problem}
          autoComplete="off"
          onChange={(event) => {
            setDraft(event.target.value);
            setProblem(undefined);
          }}
        />
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? t`Adding…` : t`Mute`}
        </Button>
      </form>
      {words.isPending ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : words.isError ? (
        <div role="alert">
          <p>
            <Trans>Your muted words could not be loaded: {loadProblem}</Trans>
          </p>
          <Button variant="secondary" onClick={() => void words.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : list.length === 0 ? (
        <p className={styles.text}>
          <Trans>No muted words yet.</Trans>
        </p>
      ) : (
        <ul className={styles.list} aria-label={t`Muted words and tags`}>
          {list.map((entry) => {
            const word = entry.word;
            return (
              <li key={word} className={styles.row}>
                <span className={styles.word}>{word}</span>
                <Button
                  variant="secondary"
                  aria-label={t`Remove ${word}`}
                  disabled={remove.isPending && remove.variables === word}
                  onClick={() => remove.mutate(word)}
                >
                  <Trans>Remove</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
