// The pictures of a post being written: their order, alt texts, checks and uploads. A store outside React
// (read with useSyncExternalStore), so the upload queue always sees the current list, whichever callback
// (a check ending, an upload answering, a click) moves it on; and so it can be tested without a browser.
import { plural, t } from '@lingui/core/macro';
import { LIMITS, type Picture } from '@share-arts/contract';

/**
 * Where a picture is:
 * - checking: its type, size and pixel count are being read in the browser;
 * - invalid: the browser refused it (see `problem`); it is never uploaded;
 * - queued: waiting for its turn to upload (or for a busy server to take more);
 * - uploading: its bytes are going out (`progress` 0…1);
 * - processing: all sent, the server is making its variants;
 * - failed: the upload or the server refused it (see `problem`); it can be retried;
 * - ready: uploaded, or a picture the post already had.
 */
export type PictureStatus = 'checking' | 'invalid' | 'queued' | 'uploading' | 'processing' | 'failed' | 'ready';

export interface DraftPicture {
  /** Stable for the life of the draft (React key, focus after a move). */
  readonly key: string;
  /** The chosen file; absent for a picture the post already had. */
  readonly file?: File;
  /** The file's name, shown and announced. */
  readonly name: string;
  /** What the thumbnail shows: the chosen file's blob: URL, or a small variant of a saved picture. */
  readonly previewUrl: string;
  /** Its size in pixels, when known: the thumbnail keeps the picture's shape. */
  readonly width?: number;
  readonly height?: number;
  readonly status: PictureStatus;
  /** 0…1 while uploading. */
  readonly progress: number;
  /** Why it is invalid or failed. */
  readonly problem?: string;
  /** The picture on the server, once uploaded (or the post's own). */
  readonly media?: Picture;
  /** The alt text as typed; saved at upload, or with the alt route when it changed after. */
  readonly alt: string;
}

export interface UploadCallbacks {
  onProgress: (fraction: number) => void;
  onSent: () => void;
  signal: AbortSignal;
}

export interface PictureDraftDeps {
  /** The browser's checks of a chosen file (type, size, pixel count). */
  inspect: (file: File) => Promise<{ problem?: string; size?: { width: number; height: number } }>;
  /** POST /api/media; rejects with an error whose `status` 429 or 503 means "busy: try again later". */
  upload: (file: File, alt: string, callbacks: UploadCallbacks) => Promise<Picture>;
  createPreview: (file: File) => string;
  revokePreview: (url: string) => void;
  /** Uploads at once (the server processes one picture per account at a time; the next one's bytes go meanwhile). */
  concurrency?: number;
  /** The most pictures the list holds: LIMITS.postPicturesMax (a work's process pictures: their own, issue 41). */
  max?: number;
  /** Tries of an upload the server turns away as busy, before it shows as failed. */
  busyTries?: number;
  /** Waits before a busy retry, in ms, when the server gives no Retry-After. */
  busyWait?: number;
  /** The timer of those waits (tests pass their own). */
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface AddResult {
  /** Files taken into the draft (some may be invalid). */
  added: number;
  /** Files beyond LIMITS.postPicturesMax, left out. */
  leftOut: File[];
}

/** A picture's small JPEG variant (the first width of the plain JPEG srcset), for a saved picture's thumbnail. */
export function thumbnailOf(picture: Picture): string {
  const jpeg = picture.sources.find((source) => source.type === 'image/jpeg' && !source.media);
  const first = jpeg?.srcset.split(',')[0]?.trim().split(/\s+/)[0];
  return first || picture.url;
}

/** The draft of a post's saved pictures, as the composer starts an edit with them. */
function savedPicture(picture: Picture, index: number): DraftPicture {
  return {
    key: `saved-${picture._id}`,
    name: picture.originalName || `Picture ${index + 1}`,
    previewUrl: thumbnailOf(picture),
    width: picture.width,
    height: picture.height,
    status: 'ready',
    progress: 1,
    media: picture,
    alt: picture.alt,
  };
}

/** Moves the item at `from` to `to` (both clamped to the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const target = Math.max(0, Math.min(to, next.length - 1));
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(target, 0, item);
  return next;
}

const isBusy = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error && (error.status === 429 || error.status === 503);

const retryAfterOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'retryAfter' in error && typeof error.retryAfter === 'number'
    ? error.retryAfter
    : undefined;

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : t`The upload failed. Please try again.`;

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

export type PictureDraft = ReturnType<typeof createPictureDraft>;

/** The pictures of one composer: start with the post's saved ones (editing) or none. */
export function createPictureDraft(saved: readonly Picture[], deps: PictureDraftDeps) {
  const {
    inspect,
    upload,
    createPreview,
    revokePreview,
    concurrency = 2,
    max = LIMITS.postPicturesMax,
    busyTries = 4,
    busyWait = 3000,
    setTimer = (run, ms) => setTimeout(run, ms),
    clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  } = deps;
  let items: readonly DraftPicture[] = saved.map(savedPicture);
  const listeners = new Set<() => void>();
  const uploads = new Map<string, AbortController>();
  /** Busy answers per picture, and the timers of their waits. */
  const busyCount = new Map<string, number>();
  const waits = new Map<string, unknown>();
  let counter = 0;
  let active = true;

  const emit = () => listeners.forEach((listener) => listener());

  const indexOf = (key: string) => items.findIndex((item) => item.key === key);
  const find = (key: string) => items.find((item) => item.key === key);

  function update(key: string, patch: Partial<DraftPicture>) {
    if (!find(key)) return;
    items = items.map((item) => (item.key === key ? { ...item, ...patch } : item));
    emit();
  }

  /** Starts the next queued pictures, in the list's order, while there is room. */
  function pump() {
    if (!active) return;
    for (const item of items) {
      if (uploads.size >= concurrency) return;
      if (item.status === 'queued' && item.file && !waits.has(item.key)) start(item.key, item.file);
    }
  }

  function start(key: string, file: File) {
    const controller = new AbortController();
    uploads.set(key, controller);
    update(key, { status: 'uploading', progress: 0, problem: undefined });
    const alt = find(key)?.alt.trim() ?? '';
    upload(file, alt, {
      signal: controller.signal,
      onProgress: (fraction) => {
        const item = find(key);
        if (item?.status === 'uploading' && fraction > item.progress) update(key, { progress: fraction });
      },
      onSent: () => update(key, { status: 'processing', progress: 1 }),
    }).then(
      (media) => {
        uploads.delete(key);
        busyCount.delete(key);
        update(key, { status: 'ready', progress: 1, media });
        pump();
      },
      (error: unknown) => {
        uploads.delete(key);
        if (isAbort(error) || !find(key)) {
          pump();
          return;
        }
        const tries = (busyCount.get(key) ?? 0) + 1;
        if (isBusy(error) && tries < busyTries) {
          // The server's queue is full: wait as it asks, then go again, without the person doing anything.
          busyCount.set(key, tries);
          update(key, { status: 'queued', progress: 0 });
          const seconds = retryAfterOf(error);
          waits.set(
            key,
            setTimer(
              () => {
                waits.delete(key);
                pump();
              },
              seconds !== undefined ? seconds * 1000 : busyWait,
            ),
          );
        } else {
          busyCount.delete(key);
          update(key, { status: 'failed', progress: 0, problem: messageOf(error) });
        }
        pump();
      },
    );
  }

  function forget(item: DraftPicture) {
    uploads.get(item.key)?.abort();
    uploads.delete(item.key);
    const wait = waits.get(item.key);
    if (wait !== undefined) clearTimer(wait);
    waits.delete(item.key);
    busyCount.delete(item.key);
    if (item.file) revokePreview(item.previewUrl);
  }

  return {
    get: () => items,

    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /**
     * Takes chosen, dropped or pasted files, in the order given, after the pictures already there: each is
     * checked, then uploaded in turn. Beyond `max` (LIMITS.postPicturesMax) the rest are left out.
     */
    add(files: readonly File[]): AddResult {
      const room = Math.max(0, max - items.length);
      const taken = files.slice(0, room);
      const added: DraftPicture[] = taken.map((file) => ({
        key: `new-${++counter}`,
        file,
        name: file.name || 'Pasted picture',
        previewUrl: createPreview(file),
        status: 'checking',
        progress: 0,
        alt: '',
      }));
      if (added.length > 0) {
        items = [...items, ...added];
        emit();
      }
      for (const item of added) {
        const { file } = item;
        if (!file) continue;
        void inspect(file).then(({ problem, size }) => {
          if (!find(item.key)) return;
          update(item.key, {
            status: problem ? 'invalid' : 'queued',
            problem,
            ...(size && { width: size.width, height: size.height }),
          });
          pump();
        });
      }
      return { added: added.length, leftOut: files.slice(room) };
    },

    /** Takes a picture out (an upload in flight is cancelled); a saved one is deleted when the post is saved. */
    remove(key: string) {
      const item = find(key);
      if (!item) return;
      forget(item);
      items = items.filter((other) => other.key !== key);
      emit();
      pump();
    },

    /** Moves a picture to `index` (clamped); false when it did not move. */
    move(key: string, index: number): boolean {
      const from = indexOf(key);
      if (from < 0) return false;
      const to = Math.max(0, Math.min(index, items.length - 1));
      if (to === from) return false;
      items = moveItem(items, from, to);
      emit();
      return true;
    },

    setAlt(key: string, alt: string) {
      update(key, { alt });
    },

    /** Uploads a failed picture again. */
    retry(key: string) {
      const item = find(key);
      if (item?.status !== 'failed' || !item.file) return;
      busyCount.delete(key);
      update(key, { status: 'queued', progress: 0, problem: undefined });
      pump();
    },

    /** The composer is shown (again: React's strict mode unmounts and mounts once in development). */
    activate() {
      active = true;
      pump();
    },

    /** The composer closed: cancels the uploads in flight and frees the previews. */
    dispose() {
      active = false;
      for (const item of items) forget(item);
    },
  };
}

/** Why Post must wait for the pictures, if it must: which picture to look at (index), and what to do. */
export interface PostWait {
  kind: 'invalid' | 'failed' | 'pending';
  message: string;
  /** The key of the picture the message is about, when it is about one. */
  key?: string;
}

const PENDING: ReadonlySet<PictureStatus> = new Set(['checking', 'queued', 'uploading', 'processing']);

/** Which list the pictures are: the post's own, or a work's process pictures (issue 41). */
export type PictureNoun = 'picture' | 'process';

/**
 * Post waits while any picture is invalid, failed, or not uploaded yet; undefined when all are ready. `noun` names
 * them in the message ("process" for a work's process pictures, issue 41). The words are in the current
 * language (issue 43).
 */
export function postWait(items: readonly DraftPicture[], noun: PictureNoun = 'picture'): PostWait | undefined {
  const isProcess = noun === 'process';
  const numbered = items.map((item, index) => ({ item, n: index + 1 }));
  const invalid = numbered.filter(({ item }) => item.status === 'invalid');
  const [firstInvalid] = invalid;
  if (firstInvalid) {
    const n = firstInvalid.n;
    const count = invalid.length;
    return count === 1
      ? {
          kind: 'invalid',
          key: firstInvalid.item.key,
          message: isProcess
            ? t`Process picture ${n} cannot be used: remove it to post.`
            : t`Picture ${n} cannot be used: remove it to post.`,
        }
      : {
          kind: 'invalid',
          message: isProcess
            ? t`${plural(count, {
                one: '# process picture cannot be used: remove it to post.',
                other: '# process pictures cannot be used: remove them to post.',
              })}`
            : t`${plural(count, {
                one: '# picture cannot be used: remove it to post.',
                other: '# pictures cannot be used: remove them to post.',
              })}`,
        };
  }
  const failed = numbered.filter(({ item }) => item.status === 'failed');
  const [firstFailed] = failed;
  if (firstFailed) {
    const n = firstFailed.n;
    const count = failed.length;
    return count === 1
      ? {
          kind: 'failed',
          key: firstFailed.item.key,
          message: isProcess
            ? t`Process picture ${n} did not upload: retry or remove it.`
            : t`Picture ${n} did not upload: retry or remove it.`,
        }
      : {
          kind: 'failed',
          message: isProcess
            ? t`${plural(count, {
                one: '# process picture did not upload: retry or remove it.',
                other: '# process pictures did not upload: retry or remove them.',
              })}`
            : t`${plural(count, {
                one: '# picture did not upload: retry or remove it.',
                other: '# pictures did not upload: retry or remove them.',
              })}`,
        };
  }
  const pending = items.filter((item) => PENDING.has(item.status)).length;
  if (pending > 0) {
    const ready = items.length - pending;
    const total = items.length;
    return {
      kind: 'pending',
      message: isProcess
        ? t`Uploading process pictures: ${ready} of ${total} ready.`
        : t`Uploading pictures: ${ready} of ${total} ready.`,
    };
  }
  return undefined;
}

/** The post's pictures in order, as `mediaIds`. */
export function mediaIdsOf(items: readonly DraftPicture[]): string[] {
  return items.flatMap((item) => (item.media ? [item.media._id] : []));
}

/** Whether the pictures differ from the post's saved ones: added, removed, moved, or an alt text changed. */
export function picturesChanged(items: readonly DraftPicture[], saved: readonly Picture[]): boolean {
  if (items.length !== saved.length) return true;
  return items.some((item, index) => {
    const original = saved[index];
    return item.file !== undefined || item.media?._id !== original?._id || item.alt !== original?.alt;
  });
}
