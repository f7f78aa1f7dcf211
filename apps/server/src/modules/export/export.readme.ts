/** The README.txt at the top of every export: what each file holds, field by field. */
export const README = `Your data from Share Arts
=========================

This archive holds everything your account made or chose on Share Arts, as it was when you
downloaded it. The .json files are UTF-8 JSON: each is one object (profile.json) or a list,
one item per line. Dates are in UTC, written YYYY-MM-DDTHH:mm:ss+00:00. Ids are the ids the
site uses (the "_id" of the API). A list is empty ([]) when there is nothing of that kind.

profile.json      Your account.
  id, username, firstName, lastName, email, bio, link
  photo           your profile photo: file (its original in this archive, or null) and url
                  (the picture the site shows), or null when you have none
  role            user, moderator or admin
  suspendedUntil, suspensionReason   null unless the account was suspended
  settings        worksSignedInOnly (your works are shown to signed-in people only),
                  aiTrainingOptOut (pages ask AI crawlers not to train on your work),
                  sensitiveMedia (show, blur or hide works with a content warning),
                  hideAiGenerated (AI-generated works are left out of your lists)
  counts          followers, following, posts, bookmarks
  createdAt, updatedAt, exportedAt

posts.json        Your posts, oldest first, each with its pictures and its comments.
  id, content, tags (its #hashtags, lower case), createdAt, updatedAt
  likeCount (with the likes from other servers), dislikeCount, commentCount
  contentWarning  null, or why the work is sensitive
  commentPolicy   who may comment: everyone, following or nobody
  licence         all-rights-reserved, cc-by, cc-by-sa, cc-by-nc, cc-by-nc-nd or cc0
  aiGenerated, downloadable   as you set them
  moderation      null, or { state: hidden or removed, reason } when a moderator acted on it
  pictures        in the post's order: id, file (the original in this archive), originalName
                  (the name you uploaded it under), type, bytes, width, height, alt
  comments        every comment on the post, oldest first: id, author { id, username },
                  content, createdAt, updatedAt, edited, upvoteCount, downvoteCount, moderation

comments.json     The comments you wrote, on anyone's post, oldest first.
  id, postId, postAuthor (the post's author's username), content, createdAt, updatedAt,
  edited, upvoteCount, downvoteCount, moderation

likes.json        The posts you liked (kind "like") and disliked (kind "dislike"), newest first.
  postId, postAuthor (username), kind, createdAt

bookmarks.json    The posts you saved, newest first: postId, postAuthor (username), createdAt.

following.json    The people you follow, newest first: userId, username, createdAt (since when); someone on
                  another server also has remote: handle (@name@server), actor (their address for
                  ActivityPub) and pending (true until their server accepts the follow).
followers.json    The people who follow you, newest first: userId, username, createdAt.

followed-tags.json   The #tags you follow, newest first: tag, createdAt.

pins.json         The works pinned first on your profile: postId, position (0 is first), createdAt.

series.json       Your series, oldest first: id, slug (the page is /{username}/series/{slug}),
                  title, description, coverPostId (null: the first work), createdAt, updatedAt,
                  works (in your order: postId, chapter, addedAt).
followed-series.json   The series you follow, newest first: seriesId, title, slug, owner
                  (its artist's username), createdAt.

blocks.json       The people you block, newest first: userId, username, createdAt.
mutes.json        The people you mute, newest first: userId, username, createdAt.
muted-words.json  The words and #tags you mute, newest first: word, createdAt.

notifications.json   Your notifications, newest first.
  id, kind (like, comment, upvote, follow, mention, report-resolved, boost: shared by
  someone on another server, or series-work: a work added to a series you follow),
  actor { id, username } (who did it; someone on another server of the fediverse,
  such as a follower on Mastodon: { handle, url }), postId, commentId, reportId (null when not about one),
  createdAt, readAt (null while unread)

pictures.json     Every picture you uploaded, newest first: in your posts, your profile
                  photos, and uploads you did not post.
  id, file (its original in this archive), purpose (post or avatar), postId and position
  (null when in no post), originalName, type, bytes, width, height, alt, createdAt

pictures/         The original of every picture in pictures.json, byte for byte as the site
                  keeps it: the file you uploaded, less the personal metadata (such as the
                  place a photo was taken) the site removed when you uploaded it. Named
                  <id>-original.<extension>; pictures.json gives each its original name.
`;
