import { t } from '@lingui/core/macro';
import { MEDIA_LIMITS } from '@share-arts/contract';
import { currentLocale } from './current-locale';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';

/** The `accept` of a file input for pictures. */
export const PICTURE_ACCEPT = MEDIA_LIMITS.mimeTypes.join(',');
/** The largest picture accepted, in MB. */
export const PICTURE_MAX_MB = MEDIA_LIMITS.maxBytes / (1024 * 1024);

/** Why a chosen file cannot be uploaded as a picture, if its type or size says so. */
export function checkPictureFile(file: File): string | undefined {
  const allowed: readonly string[] = MEDIA_LIMITS.mimeTypes;
  // Some systems label AVIF with no type at all: let the server judge those by their content.
  if (file.type && !allowed.includes(file.type)) {
    const formats = new Intl.ListFormat(currentLocale(), { type: 'disjunction' }).format(MEDIA_LIMITS.formats);
    return t`That file is not a picture we can use. Choose a ${formats} file.`;
  }
  if (file.size > MEDIA_LIMITS.maxBytes) {
    const size = new Intl.NumberFormat(currentLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
      file.size / (1024 * 1024),
    );
    const limit = PICTURE_MAX_MB;
    return t`That picture is ${size} MB; the limit is ${limit} MB. Choose a smaller file.`;
  }
  return undefined;
}

/** A picture's size in pixels, as the browser reads it. */
export interface PixelSize {
  width: number;
  height: number;
}

/** The picture's size in pixels as the browser reads it, or undefined when it cannot (the server then judges). */
function pixelSize(file: File): Promise<PixelSize | undefined> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    const done = (size?: PixelSize) => {
      URL.revokeObjectURL(url);
      resolve(size);
    };
    // The load event comes once the header is read and the data is in; decoding for display waits for a paint.
    image.onload = () =>
      done(image.naturalWidth > 0 ? { width: image.naturalWidth, height: image.naturalHeight } : undefined);
    image.onerror = () => done();
    image.src = url;
  });
}

/** Why a picture of this size cannot be uploaded, if it has more pixels than the server takes. */
export function checkPixelSize({ width, height }: PixelSize): string | undefined {
  if (width * height <= MEDIA_LIMITS.maxPixels) return undefined;
  const megapixels = Math.round((width * height) / 1e6);
  const limit = MEDIA_LIMITS.maxPixels / 1e6;
  return t`That picture is ${width} × ${height} pixels (${megapixels} megapixels); the limit is ${limit} megapixels. Choose a smaller picture.`;
}

/**
 * A chosen file as the browser sees it before any upload: its problem (type, size, then pixel count), and
 * its size in pixels when the browser could read it. Checking the pixels here spares a long upload the
 * server would refuse at the end (7.5 s for a 31 MB file here).
 */
export async function inspectPicture(file: File): Promise<{ problem?: string; size?: PixelSize }> {
  const problem = checkPictureFile(file);
  if (problem) return { problem };
  const size = await pixelSize(file);
  return { problem: size && checkPixelSize(size), size };
}

/** Why a chosen file cannot be uploaded, including a picture of more pixels than the server takes. */
export async function checkPicture(file: File): Promise<string | undefined> {
  return (await inspectPicture(file)).problem;
}

/** Frees a blob: URL (a chosen file's preview) when it is replaced or the component goes. */
export function useRevokeObjectUrl(url: string | undefined) {
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
}

interface PictureInputOptions {
  /** A server's refusal, shown when the chosen file itself passed the checks. */
  error?: string;
  /** Called with a chosen file that passed the checks. */
  onPick: (file: File) => void;
  /** Called with a chosen file's problem when the checks refuse it. */
  onRefuse?: (problem: string) => void;
  /** Called with true when a chosen file's checks start, false when they end. */
  onChecking?: (checking: boolean) => void;
}

/**
 * A picture file input's behaviour: checks the chosen file (a refused file is cleared from the
 * input and its problem becomes the error), and a way to clear the input and put focus back on it.
 */
export function usePictureInput({ error, onPick, onRefuse, onChecking }: PictureInputOptions) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [localError, setLocalError] = useState<string>();
  // Only the last chosen file's checks count, however long an earlier one's take.
  const latest = useRef(0);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    const attempt = ++latest.current;
    onChecking?.(true);
    void checkPicture(file).then((problem) => {
      if (attempt !== latest.current) return;
      onChecking?.(false);
      setLocalError(problem);
      if (problem) {
        input.value = '';
        onRefuse?.(problem);
        return;
      }
      onPick(file);
    });
  };

  /** Empties the input and its error, runs `then`, and focuses the input. */
  const reset = (then: () => void) => {
    latest.current += 1;
    onChecking?.(false);
    if (inputRef.current) inputRef.current.value = '';
    setLocalError(undefined);
    then();
    inputRef.current?.focus();
  };

  /** Forgets a refused choice (the picture stays what it was), and focuses the input. */
  const dismiss = (then: () => void) => {
    setLocalError(undefined);
    then();
    inputRef.current?.focus();
  };

  return { inputRef, error: localError ?? error, refused: localError !== undefined, onChange, reset, dismiss };
}
