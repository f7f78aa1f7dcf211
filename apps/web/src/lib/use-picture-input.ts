import { MEDIA_LIMITS } from '@share-arts/contract';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';

/** The `accept` of a file input for pictures. */
export const PICTURE_ACCEPT = MEDIA_LIMITS.mimeTypes.join(',');
/** The largest picture accepted, in MB. */
export const PICTURE_MAX_MB = MEDIA_LIMITS.maxBytes / (1024 * 1024);

/** Why a chosen file cannot be uploaded as a picture, if it cannot. */
export function checkPictureFile(file: File): string | undefined {
  const allowed: readonly string[] = MEDIA_LIMITS.mimeTypes;
  // Some systems label AVIF with no type at all: let the server judge those by their content.
  if (file.type && !allowed.includes(file.type)) {
    return `That file is not a picture we can use. Choose a ${MEDIA_LIMITS.formats.join(', ')} file.`;
  }
  if (file.size > MEDIA_LIMITS.maxBytes) {
    return `That picture is ${(file.size / (1024 * 1024)).toFixed(1)} MB; the limit is ${PICTURE_MAX_MB} MB.`;
  }
  return undefined;
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
}

/**
 * A picture file input's behaviour: checks the chosen file (a refused file is cleared from the
 * input and its problem becomes the error), and a way to clear the input and put focus back on it.
 */
export function usePictureInput({ error, onPick }: PictureInputOptions) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [localError, setLocalError] = useState<string>();

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = checkPictureFile(file);
    setLocalError(problem);
    if (problem) {
      event.target.value = '';
      return;
    }
    onPick(file);
  };

  /** Empties the input and its error, runs `then`, and focuses the input. */
  const reset = (then: () => void) => {
    if (inputRef.current) inputRef.current.value = '';
    setLocalError(undefined);
    then();
    inputRef.current?.focus();
  };

  return { inputRef, error: localError ?? error, onChange, reset };
}
