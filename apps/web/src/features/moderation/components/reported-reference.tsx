import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { fetchReportedReference } from '../api/moderation-api';
import styles from './moderation.module.css';

/**
 * A reported inquiry's reference picture (issue 42): private to the inquiry's two people, so read with the
 * moderator's token from the moderators' route (an <img> sends no token), shown from its bytes (an object URL, let
 * go when the card goes), and opened full size in a new tab from the same bytes.
 */
export function ReportedReference({ url, index }: { url: string; index: number }) {
  const { t } = useLingui();
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let made: string | null = null;
    fetchReportedReference(url, controller.signal).then(
      (next) => {
        made = next;
        setObjectUrl(next);
      },
      (error: unknown) => {
        if (!(error instanceof DOMException && error.name === 'AbortError')) setFailed(true);
      },
    );
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);

  const number = index + 1;
  const alt = t`Reference picture ${number} of the reported inquiry`;
  if (failed)
    return (
      <p className={styles.muted}>{t`Reference picture ${number} of the reported inquiry could not be loaded.`}</p>
    );
  if (!objectUrl)
    return (
      <span
        className={styles.picturePlaceholder}
        role="img"
        aria-label={t`Reference picture ${number} of the reported inquiry, loading`}
      />
    );
  return (
    <a
      href={objectUrl}
      target="_blank"
      rel="noreferrer"
      aria-label={t`Reference picture ${number} of the reported inquiry, full size`}
    >
      <img src={objectUrl} alt={alt} />
    </a>
  );
}
