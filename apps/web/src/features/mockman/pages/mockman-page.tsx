import { Trans } from '@lingui/react/macro';
import { ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { HistoryList } from '../components/history-list';
import { RequestForm } from '../components/request-form';
import { ResponsePanel } from '../components/response-panel';
import { ThemeSwitch } from '../components/theme-switch';
import { useRequestHistory, type HistoryEntry } from '../lib/history';
import { DOCS_PATH } from '../lib/openapi';
import type { RequestDraft } from '../lib/request';
import { useRequestDraft } from '../lib/use-request-draft';
import { useSendRequest } from '../lib/use-send-request';
import styles from './mockman-page.module.css';

/** The developer page: compose a request to our own API, send it, read the answer. */
/** The tool's name, never translated. */
const TOOL_NAME = 'Mockman';

export default function MockmanPage() {
  useDocumentTitle(TOOL_NAME);
  const request = useRequestDraft();
  const exchange = useSendRequest();
  const history = useRequestHistory();

  const send = (draft: RequestDraft) => {
    if (exchange.busy()) return;
    const prepared = request.check(draft);
    if (!prepared) return;
    history.remember(draft);
    void exchange.send(prepared);
  };

  const replay = (entry: HistoryEntry) => {
    if (exchange.busy()) return;
    send(request.load(entry));
  };

  return (
    <main className={styles.page}>
      <header className={styles.top}>
        <div className={styles.intro}>
          <h1 className={styles.title}>{TOOL_NAME}</h1>
          <p className={styles.description}>
            <Trans>Send test requests to the Share Arts API and read the answers. Requests only go to this site.</Trans>
          </p>
        </div>
        <nav className={styles.links} aria-label={TOOL_NAME}>
          <a href={DOCS_PATH} target="_blank" rel="noopener noreferrer" className={styles.link}>
            <Trans>
              API reference
              <ExternalLink aria-hidden="true" size="0.95em" />
              <span className="visually-hidden"> (opens in a new tab)</span>
            </Trans>
          </a>
          <Link to="/" className={styles.link}>
            <Trans>Back to Share Arts</Trans>
          </Link>
          <ThemeSwitch />
        </nav>
      </header>

      <div className={styles.layout}>
        <RequestForm
          request={request}
          pending={exchange.pending}
          onSend={send}
          onCancel={exchange.cancel}
          className={styles.form}
        />
        <ResponsePanel result={exchange.result} pending={exchange.pending} className={styles.response} />
        <HistoryList
          entries={history.entries}
          onReplay={replay}
          onClear={history.clear}
          disabled={exchange.pending}
          className={styles.history}
        />
      </div>
    </main>
  );
}
