import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import type { MockmanResult } from '../lib/request';
import styles from './response-panel.module.css';
import { toastText } from '../../../lib/spec-toasts';

interface ResponsePanelProps {
  result: MockmanResult | undefined;
  pending: boolean;
  className?: string;
}

function statusTone(status: number): string {
  if (status >= 200 && status < 300) return styles.ok ?? '';
  if (status >= 400) return styles.bad ?? '';
  return '';
}

/**
 * The answer to the last request. The short summary (status, time, the server's message) is the
 * polite live region; the full data and headers sit under it, where a screen reader can read them
 * without having them all announced.
 */
export function ResponsePanel({ result, pending, className }: ResponsePanelProps) {
  const { t } = useLingui();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const durationMs = result?.durationMs ?? 0;
  const headerCount = result?.kind === 'response' ? result.headers.length : 0;

  // On a narrow screen the answer sits below the form: bring its heading into view when it arrives.
  useEffect(() => {
    const heading = headingRef.current;
    if (!result || !heading) return;
    const { top, bottom } = heading.getBoundingClientRect();
    if (top >= 0 && bottom <= window.innerHeight) return;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    heading.scrollIntoView({ block: 'start', behavior: reduceMotion ? 'auto' : 'smooth' });
  }, [result]);

  return (
    <section
      className={[styles.panel, className].filter(Boolean).join(' ')}
      aria-labelledby="mockman-response-title"
      aria-busy={pending}
    >
      <h2 id="mockman-response-title" ref={headingRef} className={styles.title}>
        <Trans>Response</Trans>
      </h2>
      <div className={styles.summary} aria-live="polite" aria-atomic="true">
        {pending ? (
          <p className={styles.muted}>
            <Trans>Sending…</Trans>
          </p>
        ) : !result ? (
          <p className={styles.muted}>
            <Trans>Send a request to see its status, data and headers here.</Trans>
          </p>
        ) : result.kind === 'none' ? (
          <>
            <p className={styles.undefinedLine}>{toastText('responseUndefined')}</p>
            <p className={styles.muted}>
              {result.reason === 'cancelled'
                ? t`The request was cancelled after ${durationMs} ms.`
                : t`No answer from the server after ${durationMs} ms: the network failed or the server is down.`}{' '}
              <span className={styles.mono}>
                {result.method} {result.url}
              </span>
            </p>
          </>
        ) : (
          <>
            <dl className={styles.facts}>
              <div>
                <dt>
                  <Trans>Status</Trans>
                </dt>
                <dd className={`${styles.status} ${statusTone(result.status)}`}>{result.status}</dd>
              </div>
              <div>
                <dt>
                  <Trans>Status text</Trans>
                </dt>
                <dd>{result.statusText || t`(none)`}</dd>
              </div>
              <div>
                <dt>
                  <Trans>Time</Trans>
                </dt>
                <dd>
                  <Trans>{durationMs} ms</Trans>
                </dd>
              </div>
            </dl>
            <p className={`${styles.muted} ${styles.mono}`}>
              {result.method} {result.url}
            </p>
            {result.serverMessage && <p className={styles.message}>{result.serverMessage}</p>}
          </>
        )}
      </div>

      {result?.kind === 'response' && !pending && (
        <>
          <h3 className={styles.subtitle} id="mockman-response-data">
            {result.isJson ? t`Data (JSON)` : t`Data`}
          </h3>
          {result.data ? (
            // Focusable so a keyboard can scroll a long answer.
            <pre className={styles.code} tabIndex={0} role="group" aria-labelledby="mockman-response-data">
              {result.data}
            </pre>
          ) : (
            <p className={styles.muted}>
              <Trans>(empty body)</Trans>
            </p>
          )}
          <h3 className={styles.subtitle}>
            <Trans>Headers ({headerCount})</Trans>
          </h3>
          <dl className={styles.headers}>
            {result.headers.map(([name, value]) => (
              <div key={name} className={styles.header}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}
