import { TOASTS } from '@share-arts/contract';
import { ExternalLink } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { getToken } from '../../../lib/token-storage';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { toast } from '../../../ui/toast';
import { HeaderRows } from '../components/header-rows';
import { HistoryList } from '../components/history-list';
import { ResponsePanel } from '../components/response-panel';
import { ThemeSwitch } from '../components/theme-switch';
import { useRequestHistory, type HistoryEntry } from '../lib/history';
import { DOCS_PATH, parsePickedSuggestion, suggestionValue, useEndpointSuggestions } from '../lib/openapi';
import {
  DEFAULT_BODY,
  DEFAULT_ENDPOINT,
  isProblem,
  METHODS,
  prepareRequest,
  sendRequest,
  type DraftProblem,
  type HeaderRow,
  type HttpMethod,
  type MockmanResult,
  type RequestDraft,
} from '../lib/request';
import styles from './mockman-page.module.css';

let rowCounter = 0;
function newRow(name = '', value = '', enabled = true): HeaderRow {
  rowCounter += 1;
  return { id: `header-${rowCounter}`, name, value, enabled };
}

function isAuthorization(name: string): boolean {
  return name.trim().toLowerCase() === 'authorization';
}

type Errors = Partial<Record<DraftProblem['field'], string>>;

/** The developer page: compose a request to our own API, send it, read the answer. */
export default function MockmanPage() {
  useDocumentTitle('Mockman');
  const [token] = useState(() => getToken() ?? '');
  const [method, setMethod] = useState<HttpMethod>('GET');
  const [endpoint, setEndpoint] = useState(DEFAULT_ENDPOINT);
  // Signed in, the token goes with the request unless unchecked: most routes worth trying need it.
  const [headers, setHeaders] = useState<HeaderRow[]>(() => [newRow('authorization', token, token !== '')]);
  const [body, setBody] = useState(DEFAULT_BODY);
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<MockmanResult>();

  const controllerRef = useRef<AbortController | null>(null);
  const endpointRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const sendRef = useRef<HTMLButtonElement>(null);

  const suggestions = useEndpointSuggestions();
  const history = useRequestHistory();

  // Leaving the page stops a request still running.
  useEffect(() => () => controllerRef.current?.abort(), []);

  // On a narrow screen the answer sits below the form: bring its heading into view when it arrives.
  useEffect(() => {
    if (!result) return;
    const heading = document.getElementById('mockman-response-title');
    if (!heading) return;
    const { top, bottom } = heading.getBoundingClientRect();
    if (top >= 0 && bottom <= window.innerHeight) return;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    heading.scrollIntoView({ block: 'start', behavior: reduceMotion ? 'auto' : 'smooth' });
  }, [result]);

  const send = async (draft: RequestDraft) => {
    if (controllerRef.current) return;
    const prepared = prepareRequest(draft, window.location.origin);
    if (isProblem(prepared)) {
      setErrors({ [prepared.field]: prepared.message });
      toast.error(prepared.message, { toastId: `mockman-${prepared.field}` });
      if (prepared.field === 'body') bodyRef.current?.focus();
      if (prepared.field === 'endpoint') endpointRef.current?.focus();
      return;
    }
    setErrors({});
    history.remember(draft);
    const controller = new AbortController();
    controllerRef.current = controller;
    setPending(true);
    const answer = await sendRequest(prepared, controller.signal);
    controllerRef.current = null;
    setPending(false);
    setResult(answer);
    if (answer.kind === 'none' && answer.reason === 'network') {
      toast.error(TOASTS.responseUndefined, { toastId: 'mockman-no-response' });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send({ method, endpoint, headers, body });
  };

  const cancel = () => {
    controllerRef.current?.abort();
    // The Cancel button is about to be disabled; keep keyboard focus on the form.
    sendRef.current?.focus();
  };

  const onEndpointChange = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = parsePickedSuggestion(event.target.value);
    setErrors(({ endpoint: _gone, ...rest }) => rest);
    if (!picked) {
      setEndpoint(event.target.value);
      return;
    }
    // A suggestion ("POST /api/posts/:id") sets both method and path; select the first placeholder to type over.
    setMethod(picked.method);
    setEndpoint(picked.path);
    const input = event.target;
    const placeholder = /:[A-Za-z_]\w*/.exec(picked.path);
    if (placeholder) {
      requestAnimationFrame(() =>
        input.setSelectionRange(placeholder.index, placeholder.index + placeholder[0].length),
      );
    }
  };

  const onBodyKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    }
  };

  const formatBody = () => {
    try {
      setBody(JSON.stringify(JSON.parse(body), null, 2));
      setErrors(({ body: _gone, ...rest }) => rest);
    } catch {
      setErrors((current) => ({ ...current, body: TOASTS.jsonInvalid }));
      bodyRef.current?.focus();
    }
  };

  const replay = (entry: HistoryEntry) => {
    if (controllerRef.current) return;
    const currentToken = getToken() ?? '';
    const rows = entry.headers.map((header) =>
      newRow(header.name, isAuthorization(header.name) ? currentToken : header.value, header.enabled),
    );
    setMethod(entry.method);
    setEndpoint(entry.endpoint);
    setHeaders(rows);
    setBody(entry.body);
    void send({ method: entry.method, endpoint: entry.endpoint, headers: rows, body: entry.body });
  };

  const updateRow = (id: string, patch: Partial<Omit<HeaderRow, 'id'>>) => {
    setHeaders((rows) => rows.map((row) => (row.id === id ? { ...row, ...patch } : row)));
    setErrors(({ headers: _gone, ...rest }) => rest);
  };

  const removeRow = (id: string) => {
    setHeaders((rows) => rows.filter((row) => row.id !== id));
    setErrors(({ headers: _gone, ...rest }) => rest);
  };

  const addRow = () => {
    const row = newRow();
    setHeaders((rows) => [...rows, row]);
    // Put the keyboard in the new row's name field.
    requestAnimationFrame(() =>
      document.querySelector<HTMLInputElement>(`[data-row-id="${row.id}"] input[data-part="name"]`)?.focus(),
    );
  };

  const routeCount = suggestions.data?.length ?? 0;

  return (
    <main className={styles.page}>
      <header className={styles.top}>
        <div className={styles.intro}>
          <h1 className={styles.title}>Mockman</h1>
          <p className={styles.description}>
            Send test requests to the Share Arts API and read the answers. Requests only go to this site.
          </p>
        </div>
        <nav className={styles.links} aria-label="Mockman">
          <a href={DOCS_PATH} target="_blank" rel="noopener noreferrer" className={styles.link}>
            API reference
            <ExternalLink aria-hidden="true" size="0.95em" />
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          <Link to="/" className={styles.link}>
            Back to Share Arts
          </Link>
          <ThemeSwitch />
        </nav>
      </header>

      <div className={styles.layout}>
        <form
          className={styles.form}
          onSubmit={onSubmit}
          noValidate
          aria-labelledby="mockman-request-title"
          aria-busy={pending}
        >
          <h2 id="mockman-request-title" className={styles.sectionTitle}>
            Request
          </h2>

          <div className={styles.line}>
            <div className={styles.methodField}>
              <label className={styles.label} htmlFor="mockman-method">
                Method
              </label>
              <select
                id="mockman-method"
                className={`${styles.control} ${styles.select}`}
                value={method}
                onChange={(event) => setMethod(event.target.value as HttpMethod)}
              >
                {METHODS.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
            <div className={styles.endpointField}>
              <label className={styles.label} htmlFor="mockman-endpoint">
                Endpoint
              </label>
              <input
                ref={endpointRef}
                id="mockman-endpoint"
                className={`${styles.control} ${styles.mono}`}
                value={endpoint}
                onChange={onEndpointChange}
                list="mockman-routes"
                autoComplete="off"
                spellCheck={false}
                autoCapitalize="off"
                inputMode="url"
                aria-invalid={errors.endpoint ? true : undefined}
                aria-describedby={
                  errors.endpoint ? 'mockman-endpoint-error mockman-endpoint-hint' : 'mockman-endpoint-hint'
                }
              />
              <datalist id="mockman-routes">
                {suggestions.data?.map((route) => (
                  <option key={suggestionValue(route)} value={suggestionValue(route)} label={route.summary} />
                ))}
              </datalist>
            </div>
          </div>
          {errors.endpoint && (
            <p id="mockman-endpoint-error" className={styles.error}>
              {errors.endpoint}
            </p>
          )}
          <p id="mockman-endpoint-hint" className={styles.hint}>
            {suggestions.isError
              ? 'A path on this site, such as /api/health. Route suggestions could not be loaded.'
              : routeCount > 0
                ? `A path on this site, or pick one of ${routeCount} API routes (method and path). Replace placeholders such as :id with real values.`
                : 'A path on this site, such as /api/health.'}
          </p>

          <HeaderRows
            rows={headers}
            onChange={updateRow}
            onAdd={addRow}
            onRemove={removeRow}
            error={errors.headers}
            errorId="mockman-headers-error"
            signedIn={token !== ''}
          />

          <div className={styles.bodyField}>
            <div className={styles.bodyHead}>
              <label className={styles.label} htmlFor="mockman-body">
                Body
              </label>
              <Button variant="secondary" className={styles.small} onClick={formatBody}>
                Format JSON
              </Button>
            </div>
            <textarea
              ref={bodyRef}
              id="mockman-body"
              className={`${styles.control} ${styles.mono} ${styles.editor}`}
              value={body}
              onChange={(event) => {
                setBody(event.target.value);
                setErrors(({ body: _gone, ...rest }) => rest);
              }}
              onKeyDown={onBodyKeyDown}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              rows={7}
              aria-invalid={errors.body ? true : undefined}
              aria-describedby={errors.body ? 'mockman-body-error mockman-body-hint' : 'mockman-body-hint'}
            />
            {errors.body && (
              <p id="mockman-body-error" className={styles.error}>
                {errors.body}
              </p>
            )}
            <p id="mockman-body-hint" className={styles.hint}>
              JSON, sent with content-type application/json unless you add your own. GET and DELETE with {'{}'} send no
              body. Ctrl+Enter sends.
            </p>
          </div>

          <div className={styles.actions}>
            <Button ref={sendRef} type="submit" aria-disabled={pending || undefined}>
              Send
            </Button>
            <Button variant="secondary" onClick={cancel} disabled={!pending}>
              Cancel
            </Button>
          </div>
        </form>

        <ResponsePanel result={result} pending={pending} className={styles.response} />

        <HistoryList
          entries={history.entries}
          onReplay={replay}
          onClear={history.clear}
          disabled={pending}
          className={styles.history}
        />
      </div>
    </main>
  );
}
