import type { PersonSummary, UserCard } from '@share-arts/contract';

// The shapes of issue 23's shared API (block, mute, muted words, reports), as the web app reads them.

export type ReportTargetType = 'post' | 'comment' | 'user' | 'inquiry';
export type ReportReason = 'spam' | 'harassment' | 'hate' | 'minors' | 'stolen-art' | 'undisclosed-ai' | 'other';

/** The reasons in the order the report dialog offers them, with their labels. */
export const REPORT_REASONS: readonly { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam' },
  { value: 'harassment', label: 'Harassment' },
  { value: 'hate', label: 'Hate' },
  { value: 'minors', label: 'Sexual content involving minors' },
  { value: 'stolen-art', label: 'Stolen art' },
  { value: 'undisclosed-ai', label: 'AI work passed as human' },
  { value: 'other', label: 'Other' },
];

export const REPORT_NOTE_MAX = 1000;

export interface ReportTarget {
  targetType: ReportTargetType;
  /** The post's or comment's id, or the username for a user. */
  targetId: string;
}

export interface ReportBody extends ReportTarget {
  reason: ReportReason;
  note?: string;
}

export interface ReportResponse {
  report: { _id: string; status: string; createdAt: string } & ReportBody;
  message: string;
}

/** A page of blocked or muted accounts; blocked people on other servers (issue 39) have `remote`. */
export interface AccountPage {
  users: (PersonSummary | UserCard)[];
  nextCursor: string | null;
}

export interface MutedWord {
  word: string;
  createdAt: string;
}
