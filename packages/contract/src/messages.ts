/** Server error messages. The spec's section 8 texts are requirements, word for word. */
export const ERRORS = {
  usernameTaken: 'Unprocessable Entity. Username Already Exists.',
  usernameNotRegistered: 'The username you entered is not Registered. Not Found error',
  invalidCredentials: 'The credentials you entered are invalid. Unauthorized access error.',
  invalidToken: 'The token is invalid. Unauthorized access error.',
  editPostNotOwner: "Cannot edit a Post doesn't belong to the logged in User.",
  deletePostNotOwner: "Cannot delete a Post doesn't belong to the logged in User.",
  alreadyLiked: 'Cannot like a post that is already liked.',
  likeBelowZero: 'Cannot decrement like less than 0.',
  alreadyDisliked: 'Cannot dislike a post that is already disliked.',
  editCommentNotOwner: "Cannot edit a comment doesn't belong to the User.",
  deleteCommentNotOwner: "Cannot delete a comment doesn't belong to the User.",
  alreadyUpvoted: 'Cannot upvote a post that is already upvoted.',
  alreadyDownvoted: 'Cannot downvote a post that is already downvoted.',
  alreadyBookmarked: 'This Post is already bookmarked',
  notBookmarked: 'Post not bookmarked yet',
  alreadyFollowing: 'User Already following',
  notFollowing: 'User already not following',
  // Errors the spec does not list: same shape, a message a person can act on.
  postNotFound: 'No post with this id. It may have been deleted.',
  commentNotFound: 'No comment with this id on this post.',
  userNotFound: 'No user with this id or username.',
  postContentEmpty: 'content must not be empty: write a few words about your post.',
  commentContentEmpty: 'content must not be empty: write your comment first.',
  cannotFollowSelf: 'You cannot follow yourself.',
  pictureInUse: 'This picture is already used by another post: upload it again to use it here.',
  missingToken: 'Sign in first: this request needs a token in the authorization header.',
  nameRequired: 'fullname is required: send your full name (or firstName and lastName).',
  invalidJson: 'The request body is not valid JSON. Check quotes, commas and brackets.',
  routeNotFound: 'No such route. See /api/docs for the routes this API has.',
  internal: 'Something went wrong on our side. Please try again in a moment.',
  databaseUnavailable: 'The service is temporarily unavailable. Please try again in a moment.',
  tooManyRequests: 'Too many requests.',
  bodyTooLarge: 'The request body is too large.',
  pinNotOwner: 'You can pin only your own posts: pin one of the works on your profile.',
  tooManyPins: 'You can pin at most 6 works: unpin one first, then pin this one.',
  pinsNotAll: 'postIds must list every pinned post exactly once, in the new order: see GET /api/users/{username}/pins.',
  invalidTag:
    'A tag is 1 to 50 letters, digits or underscores (any script), without the #: for example "watercolour" or "油絵".',
  tooManyFollowedTags: 'You follow 500 tags already, the most one can: unfollow one before following another.',
} as const;

/** Client toast texts, as the spec words them (including its spelling). */
export const TOASTS = {
  postEmpty: 'Please write about what are you thinking',
  passwordsDiffer: 'Password do not match',
  fieldsMissing: 'Please Enter Alll the field',
  commentEmpty: 'What to comment ?',
  commentEditEmpty: 'Nothing to edit',
  jsonInvalid: 'Error in JSON format',
  responseUndefined: 'Response is undefined.',
  postFailed: 'Unable to Post',
  somethingWrong: 'something went wrong',
  addCommentFailed: 'Something went wrong',
  posted: 'Posted Successfully',
  deleted: 'Deleted Successfully',
  liked: 'Liked Successful',
  disliked: 'disliked  successfully',
  bookmarked: 'Added to bookmark',
  unbookmarked: 'Removed from Bookmark',
  followed: 'Started Following',
  unfollowed: 'Removed from Following',
  profileUpdated: 'User Data Updated Successfully',
  loggedIn: 'Login Successful',
  signedUp: 'SignIn Successful',
  loggedOut: 'Successfully Logged Out',
} as const;

/**
 * What each kind of notification says after the people who did it: "theo liked your post", "ana, theo
 * and 2 others liked your post". The server's live frames and the web app's lists both read it here.
 */
export const NOTIFICATION_ACTIONS = {
  like: 'liked your post',
  comment: 'commented on your post',
  upvote: 'upvoted your comment',
  follow: 'started following you',
  mention: 'mentioned you in a post',
  'report-resolved': 'your report was reviewed by a moderator',
  boost: 'boosted your post',
  // Followed by the series' title: "ana added a work to Moth diaries".
  'series-work': 'added a work to',
  // Followed by the public collection's title (issue 41): "sana added your work to Figure references".
  'collection-work': 'added your work to',
  // Open for commissions (issue 42): "ana is open for commissions" (to the followers who asked to be told).
  'commissions-open': 'is open for commissions',
  // Inquiries (issue 42): "ana sent you an inquiry", "ana answered your inquiry", "ana accepted your inquiry"
  // (the state's sentence is the web app's, from the inquiry's state; this one is the live region's default).
  inquiry: 'sent you an inquiry',
  'inquiry-message': 'wrote in your inquiry',
  'inquiry-state': 'changed the state of your inquiry',
} as const satisfies Record<
  | 'like'
  | 'comment'
  | 'upvote'
  | 'follow'
  | 'mention'
  | 'report-resolved'
  | 'boost'
  | 'series-work'
  | 'collection-work'
  | 'commissions-open'
  | 'inquiry'
  | 'inquiry-message'
  | 'inquiry-state',
  string
>;

/** The whole sentence of a 'report-resolved' notification (its actor is the reporter: no one to name). */
export const REPORT_RESOLVED_TEXT = 'A moderator reviewed your report.';

/** A notification's sentence after its people: a mention says where it was written. */
export function notificationAction(kind: keyof typeof NOTIFICATION_ACTIONS, inComment: boolean): string {
  return kind === 'mention' && inComment ? 'mentioned you in a comment' : NOTIFICATION_ACTIONS[kind];
}
