import { t } from '@lingui/core/macro';
import { ApiError, NETWORK_ERROR, authHeader, firstServerMessage } from './api-client';
import { currentLocale } from './current-locale';

/** An abort's reason (never shown: a cancelled upload is dropped quietly). */
const UPLOAD_CANCELLED = 'The upload was cancelled.';
const ABORT_ERROR = 'AbortError';

export interface UploadOptions {
  /** Called with 0…1 as the body goes out (fetch cannot report upload progress; XHR can). */
  onProgress?: (fraction: number) => void;
  /** Called once the whole body is sent: from then on the server is working on it, and only its answer is left. */
  onSent?: () => void;
  signal?: AbortSignal;
}

/** A refused upload; for a busy server (429, 503), how long it asks the client to wait. */
export class UploadError extends ApiError {
  /** Seconds, from the Retry-After header; undefined when the server did not say. */
  readonly retryAfter: number | undefined;

  constructor(status: number, message: string, retryAfter?: number) {
    super(status, message);
    this.name = 'UploadError';
    this.retryAfter = retryAfter;
  }
}

function parse(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds (the server sends seconds, never a date). */
function retryAfterOf(xhr: XMLHttpRequest): number | undefined {
  const seconds = Number(xhr.getResponseHeader('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** POSTs multipart form data with the stored token, reporting progress; errors are `ApiError`s like the JSON client's. */
export function uploadForm<T>(
  path: string,
  form: FormData,
  { onProgress, onSent, signal }: UploadOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('accept-language', currentLocale());
    for (const [name, value] of Object.entries(authHeader())) xhr.setRequestHeader(name, value);

    // Upload listeners must be in place before send(), or the browser may not report the body's progress.
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    xhr.upload.onload = () => {
      onProgress?.(1);
      onSent?.();
    };
    xhr.onload = () => {
      const payload = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve(payload as T);
      } else {
        const status = xhr.status;
        const message = firstServerMessage(payload) ?? t`Upload failed (${status}).`;
        reject(new UploadError(xhr.status, message, retryAfterOf(xhr)));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR));
    xhr.onabort = () => reject(new DOMException(UPLOAD_CANCELLED, ABORT_ERROR));

    if (signal) {
      if (signal.aborted) {
        reject(new DOMException(UPLOAD_CANCELLED, ABORT_ERROR));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
