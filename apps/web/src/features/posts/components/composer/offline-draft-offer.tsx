import { Plural, Trans } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { dropOfflineDraft, readOfflineDraft, type OfflineDraft } from '../../../../lib/pwa/offline-draft';
import styles from './draft-bar.module.css';

/**
 * "You wrote a post while offline" (issue 44): the post kept on this device when the drafts could not be saved
 * (lib/pwa/offline-draft.ts), offered when a new post is started. Restore puts its words and pictures in the
 * composer (the draft then saves to the server as usual, which forgets the device's copy); Discard forgets it.
 */
export function OfflineDraftOffer({ onRestore }: { onRestore: (draft: OfflineDraft) => void }) {
  const [offer, setOffer] = useState<OfflineDraft>();
  useEffect(() => {
    let cancelled = false;
    void readOfflineDraft().then((draft) => {
      if (!cancelled) setOffer(draft);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  if (!offer) return null;
  const pictures = offer.files.length;
  return (
    <div className={styles.bar} data-offline-draft>
      <p className={styles.status} role="status">
        {pictures > 0 ? (
          <Plural
            value={pictures}
            one="You wrote a post while offline (# picture)."
            other="You wrote a post while offline (# pictures)."
          />
        ) : (
          <Trans>You wrote a post while offline.</Trans>
        )}
      </p>
      <div className={styles.links}>
        <button
          type="button"
          className={styles.link}
          onClick={() => {
            setOffer(undefined);
            onRestore(offer);
          }}
        >
          <Trans>Restore it</Trans>
        </button>
        <button
          type="button"
          className={styles.link}
          onClick={() => {
            setOffer(undefined);
            void dropOfflineDraft();
          }}
        >
          <Trans>Discard</Trans>
        </button>
      </div>
    </div>
  );
}
