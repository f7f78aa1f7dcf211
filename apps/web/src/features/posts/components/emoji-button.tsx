import { Trans, useLingui } from '@lingui/react/macro';
import { Smile } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { useTheme } from '../../../lib/theme';
import styles from './post-composer.module.css';

const EmojiPanel = lazy(() => import('./emoji-panel'));

interface EmojiButtonProps {
  onPick: (emoji: string) => void;
  /** After the picker closes, e.g. to put the caret back into the text. */
  onDone: () => void;
  disabled?: boolean;
}

/** "Add emoji": opens the picker under the toolbar; Escape closes the picker, not the dialog. */
export function EmojiButton({ onPick, onDone, disabled }: EmojiButtonProps) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const { theme } = useTheme();

  const close = () => {
    setOpen(false);
    onDone();
  };

  return (
    <>
      <button
        type="button"
        className={styles.tool}
        aria-label={t`Add emoji`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        disabled={disabled}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <Smile aria-hidden="true" size="1.35em" />
      </button>
      {open && (
        <div
          id={panelId}
          className={styles.emojiPanel}
          role="group"
          aria-label={t`Emoji picker`}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              close();
            }
          }}
        >
          <Suspense
            fallback={
              <p className={styles.emojiLoading}>
                <Trans>Loading emoji…</Trans>
              </p>
            }
          >
            <EmojiPanel onPick={onPick} theme={theme} />
          </Suspense>
        </div>
      )}
    </>
  );
}
