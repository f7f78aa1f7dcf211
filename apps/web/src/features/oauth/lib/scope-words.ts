import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '@lingui/core';

/**
 * What each OAuth scope lets an app do, in plain words for the consent page (issue 45): Mastodon's scopes, said as
 * what they mean on Share Arts.
 */
export const SCOPE_WORDS: Record<string, MessageDescriptor> = {
  read: msg`See everything in your account: works, comments, the people you follow, notifications, likes and saves`,
  write: msg`Change everything in your account: post, edit and delete works, comment, like, save, follow, upload pictures`,
  follow: msg`See and change who you follow, block and mute`,
  push: msg`Send notifications to this device`,
  profile: msg`See your profile: your name, username and picture`,
  'read:accounts': msg`See your profile and other people’s`,
  'read:blocks': msg`See who you blocked`,
  'read:bookmarks': msg`See the works you saved`,
  'read:favourites': msg`See the works you liked`,
  'read:filters': msg`See your muted words`,
  'read:follows': msg`See who you follow`,
  'read:lists': msg`See your lists`,
  'read:mutes': msg`See who you muted`,
  'read:notifications': msg`See your notifications`,
  'read:search': msg`Search Share Arts as you`,
  'read:statuses': msg`See works and comments, including those only you may see`,
  'write:accounts': msg`Change your profile`,
  'write:blocks': msg`Block and unblock people`,
  'write:bookmarks': msg`Save works and take them out of your saves`,
  'write:conversations': msg`Change your conversations`,
  'write:favourites': msg`Like works and take likes back`,
  'write:filters': msg`Change your muted words`,
  'write:follows': msg`Follow and unfollow people and tags`,
  'write:lists': msg`Change your lists`,
  'write:media': msg`Upload pictures`,
  'write:mutes': msg`Mute and unmute people`,
  'write:notifications': msg`Clear your notifications`,
  'write:reports': msg`Report people and works to the moderators`,
  'write:statuses': msg`Post, edit and delete works and comments as you`,
};

/** The words for a scope, in the current language (the scope's own name when it has none). */
export const scopeWords = (scope: string): string => {
  const words = Object.hasOwn(SCOPE_WORDS, scope) ? SCOPE_WORDS[scope] : undefined;
  return words ? i18n._(words) : scope;
};
