import { writeSync } from 'node:fs';
import sonicBoom, { type SonicBoom } from 'sonic-boom';

/** Lines waiting for a log that cannot be written are dropped past this (the memory it may hold). */
const MAX_BUFFERED = 4 * 1024 * 1024;

/**
 * Where the log's lines are written (stdout by default, or a file), such that the log failing never takes
 * the server down. pino's own destination re-emits every write error but a broken pipe with nothing
 * listening: a full or failing disk under stdout (ENOSPC, EIO) crashed the process at its next line (issue
 * 18). Here a failed write is reported once on stderr, lines are dropped past MAX_BUFFERED and the
 * failed chunk is written again with the next line, so the log resumes by itself once it can be
 * written. No exit hook flushes it synchronously: sonic-boom retries a failing synchronous flush
 * forever, which would leave a stopping server hung.
 */
export function logDestination(target: number | string = 1): SonicBoom {
  const destination = new sonicBoom.SonicBoom({ dest: target, sync: false, maxLength: MAX_BUFFERED });
  let failing = false;
  destination.on('error', (error: NodeJS.ErrnoException) => {
    if (failing) return;
    failing = true;
    try {
      writeSync(
        2,
        `Share Arts: the log could not be written (${error.code ?? error.message}); lines are dropped until it can.\n`,
      );
    } catch {
      // stderr is broken too: nowhere left to say it.
    }
  });
  destination.on('write', () => (failing = false));
  return destination;
}

/** A log destination that takes its lines a few at a time (see batchedLines). */
export interface BatchedDestination {
  write(line: string): boolean;
  /** Hands the lines waiting to the destination, then flushes it. */
  flush(done?: (error?: Error) => void): void;
}

/**
 * Gathers the log's lines for `everyMs` and hands them to `destination` in one write (at once past
 * `maxBytes`). Written one by one, each line (or the few written while the last one was on its way) was a
 * write to the file through libuv's thread pool and back: a wake-up of a thread and of the event loop for
 * every line or two, about a tenth of a hello world's time under load (issue 26). A line waits at most
 * `everyMs`; a process that crashes loses those lines, as it loses the lines still on their way now.
 */
export function batchedLines(destination: SonicBoom, { everyMs = 10, maxBytes = 64 * 1024 } = {}): BatchedDestination {
  let waiting = '';
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    clearTimeout(timer);
    timer = undefined;
    if (waiting === '') return;
    const lines = waiting;
    waiting = '';
    destination.write(lines);
  };
  return {
    write(line) {
      waiting += line;
      if (waiting.length >= maxBytes) handOver();
      else timer ??= setTimeout(handOver, everyMs);
      return true;
    },
    flush(done = () => {}) {
      handOver();
      destination.flush(done);
    },
  };
}
