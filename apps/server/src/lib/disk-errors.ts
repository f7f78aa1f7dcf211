/** Why the server cannot write to its disk, from an error's code (a file system errno or a SQLSTATE). */
export type DiskProblem = 'full' | 'unwritable';

export const DISK_MESSAGES: Record<DiskProblem, string> = {
  full: 'The server cannot store files right now: its disk is full. Please try again later.',
  unwritable:
    'The server cannot store files right now: its storage is read-only or not writable. Please try again later.',
};

const FULL = new Set(['ENOSPC', 'EDQUOT', '53100']);
// EACCES, EPERM and ENOTDIR only mean "unwritable" for a write the caller knows is one (strict: false).
const READ_ONLY = new Set(['EROFS']);
const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EISDIR', 'EIO']);

/**
 * The disk problem behind an error, looking down its `cause` chain (drivers wrap the errno). `strict`
 * (the default) counts only codes that mean a full or read-only disk whatever the operation; a write's
 * own caller passes false to count permission errors too.
 */
export function diskProblem(error: unknown, { strict = true } = {}): DiskProblem | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (!code) continue;
    if (FULL.has(code)) return 'full';
    if ((strict ? READ_ONLY : UNWRITABLE).has(code)) return 'unwritable';
  }
  return undefined;
}
