import { t } from '@lingui/core/macro';
import { toastText } from '../../../lib/spec-toasts';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof METHODS)[number];

export const DEFAULT_ENDPOINT = '/api/test-todos';
export const DEFAULT_BODY = '{}';

export function isHttpMethod(value: string): value is HttpMethod {
  return (METHODS as readonly string[]).includes(value);
}

/** One row of the editable header list; only checked rows are sent. */
export interface HeaderRow {
  id: string;
  name: string;
  value: string;
  enabled: boolean;
}

/** What the form holds: enough to send, and to keep in history. */
export interface RequestDraft {
  method: HttpMethod;
  endpoint: string;
  headers: HeaderRow[];
  body: string;
}

/** A checked request, ready for fetch. */
export interface PreparedRequest {
  method: HttpMethod;
  url: string;
  headers: [string, string][];
  body: string | undefined;
}

export type DraftProblem =
  { field: 'endpoint'; message: string } | { field: 'body'; message: string } | { field: 'headers'; message: string };

// RFC 9110 token characters: what fetch accepts as a header name.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A path segment still holding an OpenAPI placeholder such as `:id`.
const PLACEHOLDER = /\/:([A-Za-z_]\w*)/;

/**
 * Resolves the endpoint against our own origin. Anything that lands elsewhere (another host,
 * `//host`, `javascript:`) is refused: this page only talks to Share Arts itself.
 */
export function resolveEndpoint(endpoint: string, origin: string): { url: string } | { problem: string } {
  const trimmed = endpoint.trim();
  if (!trimmed) return { problem: t`Enter an endpoint, for example /api/health.` };
  let url: URL;
  try {
    url = new URL(trimmed, origin);
  } catch {
    return { problem: t`This endpoint is not a valid URL. Use a path such as /api/health.` };
  }
  if (url.origin !== origin) {
    return {
      problem: t`Mockman only calls Share Arts itself (${origin}). Use a path such as /api/health instead of another address.`,
    };
  }
  const placeholder = PLACEHOLDER.exec(url.pathname);
  if (placeholder) {
    const name = placeholder[1] ?? '';
    return { problem: t`Replace :${name} in the endpoint with a real value.` };
  }
  return { url: `${url.pathname}${url.search}` };
}

/** Checks the draft in the order a person fixes things: body first (the spec's rule), then the rest. */
export function prepareRequest(draft: RequestDraft, origin: string): PreparedRequest | DraftProblem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(draft.body);
  } catch {
    return { field: 'body', message: toastText('jsonInvalid') };
  }

  const target = resolveEndpoint(draft.endpoint, origin);
  if ('problem' in target) return { field: 'endpoint', message: target.problem };

  // GET and DELETE with the default `{}` carry no body at all.
  const isEmptyObject =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.keys(parsed).length === 0;
  let body: string | undefined = draft.body;
  if (draft.method === 'GET' || draft.method === 'DELETE') {
    if (isEmptyObject) body = undefined;
    else if (draft.method === 'GET') {
      const empty = '{}';
      return { field: 'body', message: t`A GET request cannot carry a body. Set the body to ${empty} or pick POST.` };
    }
  }

  const headers: [string, string][] = [];
  for (const row of draft.headers) {
    const name = row.name.trim();
    if (!row.enabled || !name) continue;
    if (!HEADER_NAME.test(name)) {
      return { field: 'headers', message: t`"${name}" is not a valid header name (no spaces or colons).` };
    }
    // Header values cannot hold line breaks; fetch would refuse them.
    if (/[\r\n]/.test(row.value)) {
      return { field: 'headers', message: t`The value of "${name}" cannot contain a line break.` };
    }
    headers.push([name, row.value.trim()]);
  }

  // A body goes out as JSON unless the author set their own content type.
  if (body !== undefined && !headers.some(([name]) => name.toLowerCase() === 'content-type')) {
    headers.push(['content-type', 'application/json']);
  }

  return { method: draft.method, url: target.url, headers, body };
}

export function isProblem(value: PreparedRequest | DraftProblem): value is DraftProblem {
  return 'field' in value;
}

/** What came back, or why nothing did. */
export type MockmanResult =
  | {
      kind: 'response';
      method: HttpMethod;
      url: string;
      status: number;
      statusText: string;
      /** Pretty-printed JSON, or the raw text. */
      data: string;
      isJson: boolean;
      /** The first `errors[0]` message of a Share Arts error body, if any. */
      serverMessage: string | undefined;
      headers: [string, string][];
      durationMs: number;
    }
  | {
      kind: 'none';
      method: HttpMethod;
      url: string;
      reason: 'cancelled' | 'network';
      durationMs: number;
    };

function serverMessageOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || !('errors' in payload)) return undefined;
  const { errors } = payload;
  return Array.isArray(errors) && typeof errors[0] === 'string' ? errors[0] : undefined;
}

/** Sends the prepared request and reads the whole answer; never throws. */
export async function sendRequest(request: PreparedRequest, signal: AbortSignal): Promise<MockmanResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal,
      cache: 'no-store',
    });
    const text = await response.text();
    let data = text;
    let isJson = false;
    let serverMessage: string | undefined;
    if (text) {
      try {
        const payload: unknown = JSON.parse(text);
        data = JSON.stringify(payload, null, 2);
        isJson = true;
        serverMessage = response.ok ? undefined : serverMessageOf(payload);
      } catch {
        // Not JSON: show the text as it came.
      }
    }
    return {
      kind: 'response',
      method: request.method,
      url: request.url,
      status: response.status,
      statusText: response.statusText,
      data,
      isJson,
      serverMessage,
      headers: [...response.headers.entries()],
      durationMs: elapsed(),
    };
  } catch {
    return {
      kind: 'none',
      method: request.method,
      url: request.url,
      reason: signal.aborted ? 'cancelled' : 'network',
      durationMs: elapsed(),
    };
  }
}
