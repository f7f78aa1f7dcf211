import { useRef, useState } from 'react';
import { getToken } from '../../../lib/token-storage';
import { toast } from '../../../ui/toast';
import type { HistoryEntry } from './history';
import { parsePickedSuggestion } from './openapi';
import {
  DEFAULT_BODY,
  DEFAULT_ENDPOINT,
  isProblem,
  prepareRequest,
  type DraftProblem,
  type HeaderRow,
  type HttpMethod,
  type PreparedRequest,
  type RequestDraft,
} from './request';
import { toastText } from '../../../lib/spec-toasts';

let rowCounter = 0;
function newRow(name = '', value = '', enabled = true): HeaderRow {
  rowCounter += 1;
  return { id: `header-${rowCounter}`, name, value, enabled };
}

function isAuthorization(name: string): boolean {
  return name.trim().toLowerCase() === 'authorization';
}

export type DraftErrors = Partial<Record<DraftProblem['field'], string>>;

/**
 * The request being composed (method, endpoint, header rows, body), the problems found in it, and the
 * edits the form makes. `check` turns it into a request to send, or shows what stops it.
 */
export function useRequestDraft() {
  const [token] = useState(() => getToken() ?? '');
  const [method, setMethod] = useState<HttpMethod>('GET');
  const [endpoint, setEndpoint] = useState(DEFAULT_ENDPOINT);
  // Signed in, the token goes with the request unless unchecked: most routes worth trying need it.
  const [headers, setHeaders] = useState<HeaderRow[]>(() => [newRow('authorization', token, token !== '')]);
  const [body, setBody] = useState(DEFAULT_BODY);
  const [errors, setErrors] = useState<DraftErrors>({});
  const endpointRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);

  /** The request to send, or undefined after showing (and focusing) what is wrong with the draft. */
  const check = (draft: RequestDraft): PreparedRequest | undefined => {
    const prepared = prepareRequest(draft, window.location.origin);
    if (isProblem(prepared)) {
      setErrors({ [prepared.field]: prepared.message });
      toast.error(prepared.message, { toastId: `mockman-${prepared.field}` });
      if (prepared.field === 'body') bodyRef.current?.focus();
      if (prepared.field === 'endpoint') endpointRef.current?.focus();
      return undefined;
    }
    setErrors({});
    return prepared;
  };

  const changeEndpoint = (input: HTMLInputElement) => {
    const picked = parsePickedSuggestion(input.value);
    setErrors(({ endpoint: _gone, ...rest }) => rest);
    if (!picked) {
      setEndpoint(input.value);
      return;
    }
    // A suggestion ("POST /api/posts/:id") sets both method and path; select the first placeholder to type over.
    setMethod(picked.method);
    setEndpoint(picked.path);
    const placeholder = /:[A-Za-z_]\w*/.exec(picked.path);
    if (placeholder) {
      requestAnimationFrame(() =>
        input.setSelectionRange(placeholder.index, placeholder.index + placeholder[0].length),
      );
    }
  };

  const changeBody = (text: string) => {
    setBody(text);
    setErrors(({ body: _gone, ...rest }) => rest);
  };

  const formatBody = () => {
    try {
      setBody(JSON.stringify(JSON.parse(body), null, 2));
      setErrors(({ body: _gone, ...rest }) => rest);
    } catch {
      setErrors((current) => ({ ...current, body: toastText('jsonInvalid') }));
      bodyRef.current?.focus();
    }
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

  /** A request from the history, back in the form with the current token in its authorization row. */
  const load = (entry: HistoryEntry): RequestDraft => {
    const currentToken = getToken() ?? '';
    const rows = entry.headers.map((header) =>
      newRow(header.name, isAuthorization(header.name) ? currentToken : header.value, header.enabled),
    );
    setMethod(entry.method);
    setEndpoint(entry.endpoint);
    setHeaders(rows);
    setBody(entry.body);
    return { method: entry.method, endpoint: entry.endpoint, headers: rows, body: entry.body };
  };

  return {
    draft: { method, endpoint, headers, body } satisfies RequestDraft,
    errors,
    signedIn: token !== '',
    endpointRef,
    bodyRef,
    setMethod,
    changeEndpoint,
    changeBody,
    formatBody,
    updateRow,
    removeRow,
    addRow,
    check,
    load,
  };
}

export type RequestDraftState = ReturnType<typeof useRequestDraft>;
