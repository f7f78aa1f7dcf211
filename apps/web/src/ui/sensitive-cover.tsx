import { Trans, useLingui } from '@lingui/react/macro';
import { EyeOff } from 'lucide-react';
import { thumbHashDataUrl } from '../lib/thumbhash';
import styles from './sensitive-cover.module.css';

interface SensitiveCoverProps {
  /** The warning as a person reads it ("Nudity", or the author's own words). */
  warning: string;
  /** The first picture's ThumbHash: drawn blurred under the warning (absent with `hidden`). */
  placeholder?: string | null;
  /** "Hide" in the viewer's settings: no preview at all, the warning only. */
  hidden?: boolean;
  /** Reveals the pictures; absent where the cover sits inside a link (a grid's box opens the post). */
  onShow?: () => void;
  /** A small box (a grid's): the warning only, in short. */
  compact?: boolean;
}

/**
 * What a sensitive work shows until the viewer asks to see it: its placeholder blurred (never the picture
 * itself), the author's warning over it and a Show button. It fills the box its parent reserved.
 */
export function SensitiveCover({ warning, placeholder, hidden = false, onShow, compact = false }: SensitiveCoverProps) {
  const { t } = useLingui();
  const preview = hidden ? undefined : thumbHashDataUrl(placeholder);
  return (
    <div
      className={[styles.cover, compact ? styles.compact : '', hidden ? styles.hidden : ''].filter(Boolean).join(' ')}
      style={preview ? { backgroundImage: `url("${preview}")` } : undefined}
      data-sensitive-cover=""
    >
      <div className={styles.veil}>
        <EyeOff aria-hidden="true" size={compact ? '1.1em' : '1.6em'} />
        <p className={styles.warning}>
          <span className={compact ? 'visually-hidden' : undefined}>{t`Sensitive content:`} </span>
          {warning}
        </p>
        {onShow && (
          <button type="button" className={styles.show} onClick={onShow}>
            <Trans>
              Show<span className="visually-hidden"> the sensitive pictures</span>
            </Trans>
          </button>
        )}
      </div>
    </div>
  );
}

export default SensitiveCover;
