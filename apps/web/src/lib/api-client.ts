import { takeBootResponse } from './boot-data';
import { getToken } from './token-storage';

export const NETWORK_ERROR = 'Could not reach Share Arts. Check your connection and try again.';

/** A failed API call: the HTTP status (0 when the network failed) and the server's first message. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `Prefer: return=minimal`. */
  headers?: Record<string, string>;
}

/** The stored token as an authorization header (empty for a visitor). */
export function authHeader(): Record<string, string> {
  const token = getToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The first message of an `{ errors: [msg] }` body, if any. */
export function firstServerMessage(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || !('errors' in payload)) return undefined;
  const { errors } = payload;
  return Array.isArray(errors) && typeof errors[0] === 'string' ? errors[0] : undefined;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeader(), ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response | undefined;
  try {
    // The boot script may have sent this very request already, before the app loaded.
    response = await takeBootResponse(method, path);
    response ??= await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR);
  }

  const payload = await readJson(response);
  if (!response.ok) {
    const message = firstServerMessage(payload) ?? `Request failed (${response.status}).`;
    throw new ApiError(response.status, message);
  }
  return payload as T;
}

/** The one typed fetch client: same-origin JSON calls carrying the stored token. */
export const apiClient = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('DELETE', path, options),
};

/** The message to show a person for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}
