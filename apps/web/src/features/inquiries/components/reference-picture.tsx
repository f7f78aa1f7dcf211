import type { InquiryReference } from '@share-arts/contract';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { fetchReference } from '../api/inquiries-api';
import styles from './inquiry.module.css';

/**
 * A reference picture of an inquiry: read with the token (only the inquiry's two people may), shown from its bytes
 * (an object URL, let go when it leaves the screen), and opened full size in a new tab from the same bytes.
 */
export function ReferencePicture({ reference, index }: { reference: InquiryReference; index: number }) {
  const { t } = useLingui();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let made: string | null = null;
    fetchReference(reference.url, controller.signal).then(
      (objectUrl) => {
        made = objectUrl;
        setUrl(objectUrl);
      },
      (error: unknown) => {
        if (!(error instanceof DOMException && error.name === 'AbortError')) setFailed(true);
      },
    );
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [reference.url]);

  const number = index + 1;
  const alt = t`Reference picture ${number}`;
  if (failed) return <p className={styles.muted}>{t`Reference picture ${number} could not be loaded.`}</p>;
  return (
    <a
      className={styles.reference}
      href={url ?? undefined}
      target="_blank"
      rel="noreferrer"
      aria-label={t`Reference picture ${number}, full size`}
    >
      {url ? (
        <img src={url} alt={alt} width={reference.width} height={reference.height} loading="lazy" />
      ) : (
        <span className={styles.placeholder} style={{ aspectRatio: `${reference.width} / ${reference.height}` }} />
      )}
    </a>
  );
}
