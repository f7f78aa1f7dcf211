import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { TOASTS } from '@share-arts/contract';

/**
 * The spec's toasts (the contract's TOASTS) in the app's language (issue 43). The English is the contract's word
 * for word, its spelling included (spec-toasts.test.ts checks it), so what the e2e specs read in English stays.
 */
export const TOAST_TEXT = {
  postEmpty: msg`Please write about what are you thinking`,
  passwordsDiffer: msg`Password do not match`,
  fieldsMissing: msg`Please Enter Alll the field`,
  commentEmpty: msg`What to comment ?`,
  commentEditEmpty: msg`Nothing to edit`,
  jsonInvalid: msg`Error in JSON format`,
  responseUndefined: msg`Response is undefined.`,
  postFailed: msg`Unable to Post`,
  somethingWrong: msg`something went wrong`,
  addCommentFailed: msg`Something went wrong`,
  posted: msg`Posted Successfully`,
  deleted: msg`Deleted Successfully`,
  liked: msg`Liked Successful`,
  disliked: msg`disliked  successfully`,
  bookmarked: msg`Added to bookmark`,
  unbookmarked: msg`Removed from Bookmark`,
  followed: msg`Started Following`,
  unfollowed: msg`Removed from Following`,
  profileUpdated: msg`User Data Updated Successfully`,
  loggedIn: msg`Login Successful`,
  signedUp: msg`SignIn Successful`,
  loggedOut: msg`Successfully Logged Out`,
} satisfies Record<keyof typeof TOASTS, MessageDescriptor>;

/** A spec toast's words in the current language. */
export const toastText = (key: keyof typeof TOASTS): string => i18n._(TOAST_TEXT[key]);
