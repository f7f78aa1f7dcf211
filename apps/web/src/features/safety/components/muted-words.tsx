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
  const words = useMutedWords();
  const add = useAddMutedWord();
  const remove = useRemoveMutedWord();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const word = draft.trim();
    if (!word) {
      setProblem('Write a word, or a tag like #spoilers.');
      return;
    }
    if (word.length > MUTED_WORD_MAX) {
      setProblem(`A muted word is at most ${MUTED_WORD_MAX} characters.`);
      return;
    }
    setProblem(undefined);
    add.mutate(word, {
      onSuccess: () => setDraft(''),
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  const list = words.data ?? [];
  return (
    <section className={styles.card} aria-labelledby="muted-words-title">
      <h2 id="muted-words-title" className={styles.title}>
        Muted words and tags
      </h2>
      <p className={styles.text}>
        Posts containing one of these (in any letter case) stay out of your lists; opened by a link, they ask first.
      </p>
      <form className={styles.addForm} onSubmit={onSubmit} noValidate>
        <TextField
          label="Word or #tag"
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
          {add.isPending ? 'Adding…' : 'Mute'}
        </Button>
      </form>
      {words.isPending ? (
        <p role="status">Loading…</p>
      ) : words.isError ? (
        <div role="alert">
          <p>Your muted words could not be loaded: {errorMessage(words.error)}</p>
          <Button variant="secondary" onClick={() => void words.refetch()}>
            Try again
          </Button>
        </div>
      ) : list.length === 0 ? (
        <p className={styles.text}>No muted words yet.</p>
      ) : (
        <ul className={styles.list} aria-label="Muted words and tags">
          {list.map((entry) => (
            <li key={entry.word} className={styles.row}>
              <span className={styles.word}>{entry.word}</span>
              <Button
                variant="secondary"
                aria-label={`Remove ${entry.word}`}
                disabled={remove.isPending && remove.variables === entry.word}
                onClick={() => remove.mutate(entry.word)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
