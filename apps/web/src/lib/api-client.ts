import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { SOURCE_LOCALE } from '@share-arts/contract';
import { takeBootResponse } from './boot-data';
import { currentLocale } from './current-locale';
import { getToken } from './token-storage';

/** The network failed: put in the app's language when the error is made (ApiError takes a message descriptor). */
export const NETWORK_ERROR = msg`Could not reach Share Arts. Check your connection and try again.`;

/** One of our messages in the app's language; English before the page's language is set (unit tests, very early). */
function say(message: MessageDescriptor): string {
  if (!i18n.locale) i18n.activate(SOURCE_LOCALE);
  return i18n._(message);
}

/** The scheme of the authorization header. */
const AUTH_SCHEME = 'Bearer';

/**
 * A failed API call: the HTTP status (0 when the network failed) and the server's first message (in the app's
 * language: the request says it in Accept-Language), or one of ours, given as a descriptor to translate now.
 */
export class ApiError extends Error {
  readonly status: number;
  /**
   * What the server wrote, in English whatever the language shown (its `untranslated`, issue 43): what the app
   * compares to decide what to do ("Confirm it's you", the field a refusal is about); the message is for people.
   */
  readonly source: string;

  constructor(status: number, message: string | MessageDescriptor, source?: string) {
    super(typeof message === 'string' ? message : say(message));
    this.name = 'ApiError';
    this.status = status;
    this.source = source ?? this.message;
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
  return token ? { authorization: `${AUTH_SCHEME} ${token}` } : {};
}

/** The first English message of a translated `{ errors, untranslated }` body, if any. */
function firstSourceMessage(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || !('untranslated' in payload)) return undefined;
  const { untranslated } = payload;
  return Array.isArray(untranslated) && typeof untranslated[0] === 'string' ? untranslated[0] : undefined;
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
  const headers: Record<string, string> = {
    accept: 'application/json',
    // The server answers its messages in the app's language (issue 43).
    'accept-language': currentLocale(),
    ...authHeader(),
    ...options.headers,
  };
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
    const status = response.status;
    const message = firstServerMessage(payload) ?? t`Request failed (${status}).`;
    throw new ApiError(response.status, message, firstSourceMessage(payload));
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
  return t`Something went wrong. Please try again.`;
}

/** What the server wrote, in English (ApiError.source): for deciding, never for showing. */
export function errorSource(error: unknown): string {
  return error instanceof ApiError ? error.source : errorMessage(error);
}

/**
 * A picture only some people may see (an inquiry's references, issue 42), fetched with the token (an <img> sends
 * none), as an object URL the caller revokes.
 */
export async function fetchPrivatePicture(url: string, signal: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { headers: authHeader(), signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR);
  }
  if (!response.ok) throw new ApiError(response.status, t`The picture could not be loaded.`);
  return URL.createObjectURL(await response.blob());
}
