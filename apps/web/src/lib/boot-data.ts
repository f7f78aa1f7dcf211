import { getToken } from './token-storage';

/**
 * The boot script (src/boot/page-data.ts) starts the page's first API requests before the app's modules
 * have arrived, and leaves them under `window[BOOT_GLOBAL]`. The app takes each answer once: as the first
 * data of its query when it has already arrived (`takeBootData`, in the queries' `initialData`: the page
 * then renders with it at once), or in place of sending the same request again when it is still on the
 * way (`takeBootResponse`, in the API client). A request is matched by method and path, and only while the
 * token it carried is still the stored one.
 */
export const BOOT_GLOBAL = '__shareArtsBoot';

/** An answer: its status and body (status 0 when the network failed). */
export interface BootResult {
  status: number;
  body: string;
}

export interface BootRequest {
  promise: Promise<BootResult>;
  /** Set once the answer is in. */
  result?: BootResult;
}

export interface BootState {
  /** The token the requests carried. */
  token: string | null;
  /** performance.now() when the script ran. */
  startedAt: number;
  /** By `bootKey(method, path)`. */
  requests: Record<string, BootRequest>;
}

/** Older answers are not used: by then the app has long sent its own requests. */
const MAX_AGE_MS = 30_000;

export const bootKey = (method: string, path: string) => `${method} ${path}`;

// globalThis, not window: the server's render of a shared page (src/entry-server.tsx) hands its answers over
// the same way, and has no window.
function bootState(): BootState | undefined {
  return (globalThis as unknown as Record<string, BootState | undefined>)[BOOT_GLOBAL];
}

/** The request the boot script made for `method path`, removed from the state (each is used once). */
function take(method: string, path: string, settledOk: boolean): BootRequest | undefined {
  const state = bootState();
  const key = bootKey(method, path);
  const request = state?.requests[key];
  if (!state || !request) return undefined;
  if (settledOk && !(request.result && request.result.status >= 200 && request.result.status < 300)) return undefined;
  delete state.requests[key];
  // Signed out or in as someone else since, or too old: not this session's answer.
  if (state.token !== getToken() || performance.now() - state.startedAt > MAX_AGE_MS) return undefined;
  return request;
}

/** The parsed body of the boot script's successful answer to `method path`, if it has arrived. */
export function takeBootData<T>(method: string, path: string): T | undefined {
  const result = take(method, path, true)?.result;
  if (!result) return undefined;
  try {
    return JSON.parse(result.body) as T;
  } catch {
    return undefined;
  }
}

/**
 * The boot script's answer to `method path` as a Response (undefined inside the promise when its
 * request failed on the network: send it again), or undefined when it made no such request.
 */
export function takeBootResponse(method: string, path: string): Promise<Response | undefined> | undefined {
  const request = take(method, path, false);
  return request?.promise.then((result) =>
    result.status === 0 ? undefined : new Response(result.body || null, { status: result.status }),
  );
}
