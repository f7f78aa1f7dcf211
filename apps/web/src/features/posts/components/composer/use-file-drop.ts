import { useEffect, useRef, useState, type DragEvent } from 'react';

/** Only a drag that carries files is the composer's: text dragged into the text box keeps its default. */
const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * Drag-and-drop of files anywhere on the element given `dropProps` (the whole dialog, so a drop just
 * beside the drop zone does not make the browser open the file instead). `over` is true while files are
 * dragged over it; a drop hands them over in the order the system gives.
 */
export function useFileDrop(onFiles: (files: File[]) => void, disabled: boolean) {
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them, so `over` does not flicker.
  const depth = useRef(0);

  const dropProps = {
    onDragEnter(event: DragEvent) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setOver(true);
    },
    onDragOver(event: DragEvent) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    },
    onDragLeave(event: DragEvent) {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop(event: DragEvent) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setOver(false);
      if (!disabled) onFiles([...event.dataTransfer.files]);
    },
  };
  return { over: over && !disabled, dropProps };
}

const isTextField = (target: EventTarget | null) =>
  target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type === 'text');

/**
 * Ctrl/Cmd+V of a picture anywhere while the composer is open adds it. Text pasted into a text field stays
 * text, even when the clipboard also holds a picture of it (word processors put both).
 */
export function usePastedFiles(onFiles: (files: File[]) => void, disabled: boolean) {
  const latest = useRef(onFiles);
  useEffect(() => {
    latest.current = onFiles;
  });
  useEffect(() => {
    if (disabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const data = event.clipboardData;
      const files = [...(data?.files ?? [])];
      if (files.length === 0) return;
      if (isTextField(event.target) && data?.types.includes('text/plain')) return;
      event.preventDefault();
      latest.current(files);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [disabled]);
}
