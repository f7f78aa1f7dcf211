// Words for the queue (the contract's schema module stays out of the browser's chunks). Messages to render with
// `i18n._` in the current language (issue 43).
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

export const REASON_LABELS: Record<string, MessageDescriptor> = {
  spam: msg`Spam`,
  harassment: msg`Harassment`,
  hate: msg`Hate`,
  minors: msg`Sexual content involving minors`,
  'stolen-art': msg`Stolen art`,
  'undisclosed-ai': msg`AI work passed as human`,
  other: msg`Other`,
};

export const ACTION_LABELS: Record<string, MessageDescriptor> = {
  dismiss: msg`Dismissed`,
  hide: msg`Hidden`,
  remove: msg`Removed`,
  'mark-sensitive': msg`Marked sensitive`,
  suspend: msg`Suspended`,
  role: msg`Role changed`,
  'server-block': msg`Server blocked`,
  'server-change': msg`Server block changed`,
  'server-unblock': msg`Server unblocked`,
};

export const TARGET_LABELS = {
  post: msg`Post`,
  comment: msg`Comment`,
  user: msg`Person`,
  server: msg`Server`,
  // Issue 42: a thread between two people; its author is the person reported.
  inquiry: msg`Inquiry`,
} as const;

/** How a server is blocked (the contract's SERVER_BLOCK_SEVERITY_LABELS, kept out of the browser's chunks). */
export const SEVERITY_LABELS: Record<string, { label: MessageDescriptor; hint: MessageDescriptor }> = {
  suspend: {
    label: msg`Suspend`,
    hint: msg`Refuse everything from it; its people stop following our artists, and nothing is sent to it.`,
  },
  silence: { label: msg`Silence`, hint: msg`Its people notify and reach only those here who follow them.` },
  reject_media: {
    label: msg`Reject media`,
    hint: msg`Fetch none of its pictures, so none of its works; its follows, likes and replies still come.`,
  },
};

export const REASON_MAX = 500;
