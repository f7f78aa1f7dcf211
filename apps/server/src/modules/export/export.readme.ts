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
                  allowCollecting (others may add your works to their collections)
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
  process         its process pictures (sketch, lines, flats…) in your order, each as a picture
  editedAt        when an edit last changed it (null: never edited)
  history         each edit that changed it, newest first: createdAt, changed (content, pictures,
                  processPictures, or a right's name), before and after (the words and rights it
                  changed), picturesBefore and processPicturesBefore (when it changed them: in
                  their order, id, file in pictures/, alt as it was then)
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
collections.json  Your collections, oldest first (Saved is bookmarks.json): id, slug (the page
                  is /{username}/collections/{slug}), title, description, visibility (public or
                  private), createdAt, updatedAt, works (in your order: postId, note, addedAt).
commissions.json  Open for commissions: one object. panel (null if you never filled it in):
                  open, kinds, kindsNote, slots { total, taken }, price { currency, min, max }
                  (whole units of the currency), turnaroundDays, terms, termsUrl, languages,
                  examples (the postIds of your example works, in order), openedAt, updatedAt;
                  watching: the artists you asked to be told about when they open: artistId,
                  username, createdAt, notifiedAt (when you were last told, or null).
inquiries.json    The inquiries you sent or received and did not delete, oldest first: id, role
                  (artist: sent to you; client: sent by you), artist, client (usernames), body,
                  budget { amount, currency } (or null), deadline (YYYY-MM-DD or null), state (open,
                  accepted, declined, done), declineReason, createdAt, updatedAt, messages (oldest
                  first: id, author, body, createdAt), references (id, file, width, height, bytes,
                  createdAt). The reference pictures are in inquiries/<inquiry id>/<id>.jpg.
followed-series.json   The series you follow, newest first: seriesId, title, slug, owner
                  (its artist's username), createdAt.

drafts.json       Your drafts and scheduled posts (never published), oldest first: id, content,
                  rights (contentWarning, commentPolicy, licence, aiGenerated, downloadable),
                  seriesId and chapter (the series it joins once posted), scheduledAt (UTC; null:
                  not scheduled), timeZone (the zone you chose it in), publishError, createdAt,
                  updatedAt, pictures (in order: id, file in pictures/, alt), processPictures (the
                  work's sketches, lines, flats…, in order, the same way).

insights.json     Your insights' counts (issue 42), oldest day first: how many people saw your
                  profile (postId null) and each work per day (UTC) and where they came from.
  day, postId, source (home, explore, tag, search, profile, series, post, notifications,
  external: another site, federated: a server of the fediverse, direct, other), host (the
  site, for external and federated; else null), views. Counts only: never who viewed.

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
                  photos, uploads you did not post, and pictures an edit took out of a post
                  (kept by its history: postId null).
  id, file (its original in this archive), purpose (post or avatar), postId and position
  (null when in no post), process (true for a process picture of that post), originalName,
  type, bytes, width, height, alt, createdAt

pictures/         The original of every picture in pictures.json, byte for byte as the site
                  keeps it: the file you uploaded, less the personal metadata (such as the
                  place a photo was taken) the site removed when you uploaded it. Named
                  <id>-original.<extension>; pictures.json gives each its original name.
`;
