import { TOASTS } from '@share-arts/contract';
import { useEffect, useRef } from 'react';
import type { MockmanResult } from '../lib/request';
import styles from './response-panel.module.css';

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
  const headingRef = useRef<HTMLHeadingElement>(null);

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
        Response
      </h2>
      <div className={styles.summary} aria-live="polite" aria-atomic="true">
        {pending ? (
          <p className={styles.muted}>Sending…</p>
        ) : !result ? (
          <p className={styles.muted}>Send a request to see its status, data and headers here.</p>
        ) : result.kind === 'none' ? (
          <>
            <p className={styles.undefinedLine}>{TOASTS.responseUndefined}</p>
            <p className={styles.muted}>
              {result.reason === 'cancelled'
                ? `The request was cancelled after ${result.durationMs} ms.`
                : `No answer from the server after ${result.durationMs} ms: the network failed or the server is down.`}{' '}
              <span className={styles.mono}>
                {result.method} {result.url}
              </span>
            </p>
          </>
        ) : (
          <>
            <dl className={styles.facts}>
              <div>
                <dt>Status</dt>
                <dd className={`${styles.status} ${statusTone(result.status)}`}>{result.status}</dd>
              </div>
              <div>
                <dt>Status text</dt>
                <dd>{result.statusText || '(none)'}</dd>
              </div>
              <div>
                <dt>Time</dt>
                <dd>{result.durationMs} ms</dd>
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
            Data{result.isJson ? ' (JSON)' : ''}
          </h3>
          {result.data ? (
            // Focusable so a keyboard can scroll a long answer.
            <pre className={styles.code} tabIndex={0} role="group" aria-labelledby="mockman-response-data">
              {result.data}
            </pre>
          ) : (
            <p className={styles.muted}>(empty body)</p>
          )}
          <h3 className={styles.subtitle}>Headers ({result.headers.length})</h3>
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
