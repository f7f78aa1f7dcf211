import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ViewSource } from '@share-arts/contract';

/**
 * Where views came from, in the app's language (issue 43): the contract's VIEW_SOURCE_LABELS, whose English these
 * are word for word (view-source-labels.test.ts).
 */
export const VIEW_SOURCE_TEXT = {
  home: msg({ message: 'Home', comment: 'Where views came from: the home feed' }),
  explore: msg({ message: 'Explore', comment: 'Where views came from: the Explore page' }),
  tag: msg`Tag pages`,
  search: msg({ message: 'Search', comment: 'Where views came from: search results' }),
  profile: msg`Your profile`,
  series: msg({ message: 'Series', comment: 'Where views came from: series pages' }),
  post: msg`Other works`,
  notifications: msg({ message: 'Notifications', comment: 'Where views came from: the notifications page' }),
  external: msg`Other sites`,
  federated: msg`The fediverse`,
  direct: msg`Direct or unknown`,
  other: msg`Elsewhere in the app`,
} satisfies Record<ViewSource, MessageDescriptor>;

/** A source's label in the current language. */
export const viewSourceLabel = (source: ViewSource): string => i18n._(VIEW_SOURCE_TEXT[source]);
