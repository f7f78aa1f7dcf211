import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { PersonSummary, UserCard } from '@share-arts/contract';

// The shapes of issue 23's shared API (block, mute, muted words, reports), as the web app reads them.

export type ReportTargetType = 'post' | 'comment' | 'user' | 'inquiry';
export type ReportReason = 'spam' | 'harassment' | 'hate' | 'minors' | 'stolen-art' | 'undisclosed-ai' | 'other';

/** The reasons in the order the report dialog offers them, with their labels. */
export const REPORT_REASONS: readonly { value: ReportReason; label: MessageDescriptor }[] = [
  { value: 'spam', label: msg`Spam` },
  { value: 'harassment', label: msg`Harassment` },
  { value: 'hate', label: msg`Hate` },
  { value: 'minors', label: msg`Sexual content involving minors` },
  { value: 'stolen-art', label: msg`Stolen art` },
  { value: 'undisclosed-ai', label: msg`AI work passed as human` },
  { value: 'other', label: msg`Other` },
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
  /** Also to the server of its author on another server (issue 39). */
  forward?: boolean;
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
