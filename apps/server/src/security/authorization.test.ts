import { createECDH } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { ZipFile } from 'yazl';
import { ERRORS, MODERATION_MESSAGES } from '@share-arts/contract';
import { queryRows } from '../db/client.js';
import { writeReliabilitySection } from '../../../../scripts/reliability-report.mjs';
import { ACCOUNT_GONE } from '../plugins/auth.js';
import { createTestApp, multipart, signUp, uniqueUsername, type SignedUp, type TestContext } from '../test/helpers.js';
import {
  afterAllTests,
  COUNTED_TABLES,
  createComment,
  createPost,
  deleteUserRow,
  expectCleanMastodonRefusal,
  expectCleanRefusal,
  isMastodonRoute,
  forgedTokens,
  tinyPng,
  uploadPicture,
} from './fixtures.js';

/**
 * Authorization matrix (issue 8, part 4): every API route × every kind of token. Reads are public (a
 * bad token reads as signed out); writes and personal lists need a valid token (401 otherwise); author-only
 * actions with another user's token answer the spec's 400 messages (a picture's alt text: 403). A deleted
 * user's token verifies as 404 (the spec) and never writes: 404 wherever the route needs the user.
 *
 * Issue 23 adds three kinds, each computed from the listed ones rather than listed: a suspended account's
 * token is refused (403) wherever a deleted account's is (404), and reads as it elsewhere; a moderator and
 * an admin are someone else to the owner's content on every route (the `other` column, with its messages:
 * no author powers through the ordinary routes), and only on the moderation routes does their role count.
 */

const KINDS = [
  'none',
  'garbage',
  'algNone',
  'wrongSecret',
  'tampered',
  'expired',
  'deleted',
  'other',
  'ownRaw',
  'ownBearer',
  'suspended',
  'moderator',
  'admin',
] as const;
type Kind = (typeof KINDS)[number];

/** What a moderator and an admin get on the moderation routes: the queue and actions for both, the rest for admins. */
const ROLE_ROUTES: Record<string, { moderator: number; admin: number }> = {
  'GET /api/moderation/reports': { moderator: 200, admin: 200 },
  'POST /api/moderation/actions': { moderator: 200, admin: 200 },
  'GET /api/moderation/audit': { moderator: 403, admin: 200 },
  // Blocked servers (issue 39): moderators and admins.
  'GET /api/moderation/servers': { moderator: 200, admin: 200 },
  'POST /api/moderation/servers': { moderator: 201, admin: 201 },
  'PATCH /api/moderation/servers/:id': { moderator: 200, admin: 200 },
  'DELETE /api/moderation/servers/:id': { moderator: 200, admin: 200 },
  'PUT /api/admin/users/:username/role': { moderator: 403, admin: 200 },
  'GET /api/admin/jobs': { moderator: 403, admin: 200 },
  // No failed job has the matrix's id: the admin is told so.
  'POST /api/admin/jobs/:id/retry': { moderator: 403, admin: 404 },
  // A reported inquiry's reference picture: moderators and admins, while the report is open.
  'GET /api/moderation/inquiries/:id/references/:referenceId': { moderator: 200, admin: 200 },
};

/** The expected status of a cell: listed in MATRIX, or computed for the kinds of issue 23 (see above). */
function expectedStatus(route: string, kind: Kind): number {
  const listed = MATRIX[route]!;
  const column = (name: Kind) => listed[KINDS.indexOf(name)]!;
  if (kind === 'suspended') return column('deleted') === 404 ? 403 : column('deleted');
  if (kind === 'moderator' || kind === 'admin') return ROLE_ROUTES[route]?.[kind] ?? column('other');
  return column(kind);
}

/** Expected status per route and token kind, in the order of KINDS. */
// prettier-ignore
const MATRIX: Record<string, [none: number, garbage: number, algNone: number, wrongSecret: number, tampered: number, expired: number, deleted: number, other: number, ownRaw: number, ownBearer: number]> = {
  //                                               none garb algN wrong tamp exp  del  other raw bearer
  'GET /api/health':                              [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/ready':                               [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/test-todos':                          [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'POST /api/auth/signup':                        [201, 201, 201, 201, 201, 201, 201, 201, 201, 201],
  'POST /api/auth/login':                         [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  // verify takes the token in its body: "none" sends no token, "ownBearer" sends "Bearer <token>".
  'POST /api/auth/verify':                        [400, 401, 401, 401, 401, 401, 404, 200, 200, 401],
  // Mail links (issue 24): the link's token is the proof, whatever the header says; "Forgot" always 202.
  'POST /api/auth/forgot':                        [202, 202, 202, 202, 202, 202, 202, 202, 202, 202],
  'POST /api/auth/reset':                         [400, 400, 400, 400, 400, 400, 400, 400, 400, 400],
  'POST /api/auth/verify-email':                  [400, 400, 400, 400, 400, 400, 400, 400, 400, 400],
  'POST /api/auth/verify-email/resend':           [401, 401, 401, 401, 401, 401, 404, 202, 202, 202],
  // Sessions (issue 24): LOG OUT and DELETE end a fresh session of the cell's account (not the matrix's own
  // token); another's session id is a 404; the password change is sent a common new password (400 once the
  // token passes: a real change is sessions.test.ts's).
  'POST /api/auth/logout':                        [401, 401, 401, 401, 401, 401, 404, 204, 204, 204],
  'GET /api/sessions':                            [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'DELETE /api/sessions/:id':                     [401, 401, 401, 401, 401, 401, 404, 404, 204, 204],
  'POST /api/sessions/end-others':                [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/auth/password':                      [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'GET /api/users':                               [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/users/suggestions':                   [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/users/bookmark':                      [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/users/bookmark/:postId':             [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/users/remove-bookmark/:postId':      [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/users/by-username/:username':         [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/users/:userId':                       [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/users/:userId/followers':             [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'POST /api/users/follow/:followUserId':         [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/users/unfollow/:followUserId':       [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/users/edit':                         [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'GET /api/posts':                               [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/feed':                                [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/posts/liked':                         [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/posts/user/:username':                [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/posts/:id':                           [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  // A work's edit history (issue 41): for anyone who sees the work; the pictures an edit took out, for its artist.
  'GET /api/posts/:id/history':                   [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/posts/:id/history/pictures/:mediaId': [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  'POST /api/posts':                              [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'POST /api/posts/edit/:id':                     [401, 401, 401, 401, 401, 401, 404, 400, 201, 201],
  'DELETE /api/posts/:id':                        [401, 401, 401, 401, 401, 401, 404, 400, 201, 201],
  'POST /api/posts/like/:id':                     [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'POST /api/posts/dislike/:id':                  [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'POST /api/posts/:id/comment':                  [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'GET /api/comments/:postId':                    [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'POST /api/comments/edit/:postId/:commentId':   [401, 401, 401, 401, 401, 401, 404, 400, 201, 201],
  'POST /api/comments/delete/:postId/:commentId': [401, 401, 401, 401, 401, 401, 404, 400, 201, 201],
  'POST /api/comments/upvote/:postId/:commentId': [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'POST /api/comments/downvote/:postId/:commentId': [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'GET /api/search':                              [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/tags':                                [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/tags/:tag':                           [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/tags/:tag/posts':                     [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'POST /api/tags/:tag/follow':                   [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'DELETE /api/tags/:tag/follow':                 [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/users/me/tags':                       [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/users/mentionable':                   [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  // Pins: a profile's pinned works are public; pinning, unpinning and reordering act on your own pins only
  // (another's post: 400 with the spec's message; reordering lists the posts you pinned, so the owner's: 400).
  'GET /api/users/:username/pins':                [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'POST /api/posts/:postId/pin':                  [401, 401, 401, 401, 401, 401, 404, 400, 200, 200],
  'DELETE /api/posts/:postId/pin':                [401, 401, 401, 401, 401, 401, 404, 400, 200, 200],
  'PUT /api/users/me/pins':                       [401, 401, 401, 401, 401, 401, 404, 400, 200, 200],
  // Block and mute (issue 23): your own lists and choices only.
  'POST /api/users/:username/block':              [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'DELETE /api/users/:username/block':            [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  // Someone on another server (issue 39): anyone signed in blocks them for themselves.
  'POST /api/remote-people/:id/block':             [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'DELETE /api/remote-people/:id/block':           [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  // Following out and moving accounts (issues 39, 40): signed in; a query that is no handle nor address is 400.
  'GET /api/federation/lookup':                    [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'GET /api/federation/aliases':                   [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'PUT /api/federation/aliases':                   [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  // Moving away (issue 40): an account of this very site is refused (400), so nothing moves.
  'GET /api/federation/move':                      [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/federation/move':                     [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'DELETE /api/federation/move':                   [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/users/:username/mute':               [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'DELETE /api/users/:username/mute':             [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/users/me/blocks':                     [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/users/me/mutes':                      [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/users/me/muted-words':                [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/users/me/muted-words':               [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'DELETE /api/users/me/muted-words/:word':       [401, 401, 401, 401, 401, 401, 404, 204, 204, 204],
  // Reports and moderation (issue 23): anyone signed in reports; the queue, actions, audit log and roles are
  // for moderators and admins only (403 for these users; the roles matrix is moderation-authorization.test.ts).
  'POST /api/reports':                            [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'GET /api/moderation/reports':                  [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  'POST /api/moderation/actions':                 [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  'GET /api/moderation/audit':                    [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  // Blocked servers (issue 39): moderators and admins only.
  'GET /api/moderation/servers':                  [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  'POST /api/moderation/servers':                 [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  'PATCH /api/moderation/servers/:id':            [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  'DELETE /api/moderation/servers/:id':           [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  'PUT /api/admin/users/:username/role':          [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  // The background jobs (issue 37): admins only.
  'GET /api/admin/jobs':                          [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  'POST /api/admin/jobs/:id/retry':               [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
  // A feed reader sends no token: whatever it carries, the feed is public.
  'GET /api/users/:username/feed.atom':           [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  // "Follow from your server" (issue 39) is for anyone; an empty handle is refused before any server is asked.
  'GET /api/users/:username/follow-from':         [400, 400, 400, 400, 400, 400, 400, 400, 400, 400],
  // Deleting one's account (issue 24) with an empty password: a real deletion would end the matrix's accounts
  // (it is account-deletion.test.ts's); the token is checked first, then the password.
  'POST /api/account/delete':                     [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'POST /api/media':                              [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'POST /api/media/:id/alt':                      [401, 401, 401, 401, 401, 401, 404, 403, 201, 201],
  'GET /api/notifications':                       [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/notifications/unread-count':          [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/notifications/read':                 [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  // Download your data (issue 24): a signed-in account asks for a one-time link; the link is the credential.
  'POST /api/account/export':                     [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'GET /api/account/export/:token':               [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  // Two-factor sign-in (issue 24): your own settings only (another's passkey is not found). Confirming and
  // turning off are sent a blank code (400 once the token passes); the second step and a passkey sign-in are
  // public, and a blank code or a passkey's answer without its client data is refused whatever token comes with it.
  'GET /api/two-factor':                          [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/two-factor/totp/setup':              [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/two-factor/totp/confirm':            [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'POST /api/two-factor/totp/disable':            [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'POST /api/two-factor/passkeys/options':        [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/two-factor/passkeys':                [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'DELETE /api/two-factor/passkeys/:id':          [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'POST /api/auth/login/second-factor':           [400, 400, 400, 400, 400, 400, 400, 400, 400, 400],
  'POST /api/auth/passkey/options':               [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'POST /api/auth/passkey':                       [400, 400, 400, 400, 400, 400, 400, 400, 400, 400],
  // A plain GET is refused whatever it carries; the socket's own sign-in (the hello frame) is tested in live.test.ts.
  'GET /api/live':                                [426, 426, 426, 426, 426, 426, 426, 426, 426, 426],
  // Account security (issue 38): the matrix's sessions are fresh, so no confirmation is asked; the address sent
  // is the one the accounts have (400), and the confirmation is sent no proof (400) once the token passes. The
  // undo link is the proof, whatever the header says.
  'GET /api/account/security-log':                [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  // Imports (issue 40): your own only (another's is not found). The upload is sent what is not a zip (422 once the
  // token passes); the owner's import has started already (409).
  'POST /api/imports':                            [401, 401, 401, 401, 401, 401, 404, 422, 422, 422],
  'GET /api/imports':                             [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/imports/:id':                         [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'GET /api/imports/:id/items':                   [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'POST /api/imports/:id/start':                  [401, 401, 401, 401, 401, 401, 404, 404, 409, 409],
  'POST /api/account/email':                      [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'POST /api/auth/reauthenticate':                [401, 401, 401, 401, 401, 401, 404, 400, 400, 400],
  'POST /api/auth/reauthenticate/passkey-options':[401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/auth/undo-email':                    [400, 400, 400, 400, 400, 400, 400, 400, 400, 400],
  // Series (issue 41): public reads; starting one needs an account; changing one is its owner's alone (403 to
  // anyone else); following one needs an account.
  'GET /api/users/:username/series':              [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/users/:username/series/:slug':        [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/users/:username/series/:slug/feed.atom': [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/series/:id/works':                    [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/posts/:postId/series':                [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  // Insights (issue 42): the beacon answers 204 to anyone (a token it cannot read is a visitor); a work's insights are
  // its artist's alone (anyone else: the 404 of an unknown work).
  'POST /api/views':                              [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
  'GET /api/insights/profile':                    [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/insights/posts/:postId':              [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'POST /api/series':                             [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'PATCH /api/series/:id':                        [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  'DELETE /api/series/:id':                       [401, 401, 401, 401, 401, 401, 404, 403, 204, 204],
  'POST /api/series/:id/works':                   [401, 401, 401, 401, 401, 401, 404, 403, 201, 201],
  'PATCH /api/series/:id/works/:postId':          [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  'DELETE /api/series/:id/works/:postId':         [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  'POST /api/series/:id/works/:postId/move':      [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  'POST /api/series/:id/follow':                  [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'DELETE /api/series/:id/follow':                [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  // Open for commissions (issue 42): anyone reads a panel; each account writes its own; a follower asks to be told
  // (the owner asking about their own panel: 400).
  'GET /api/users/:username/commissions':         [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'PUT /api/commissions':                         [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/users/:username/commissions/watch':  [401, 401, 401, 401, 401, 401, 404, 200, 400, 400],
  'DELETE /api/users/:username/commissions/watch': [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  // Collections (issue 41): a public one is read by anyone; starting one needs an account; changing one is its
  // owner's alone (403 to anyone else: the work in the cells is the owner's, so no artist's right applies).
  'GET /api/users/:username/collections':         [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/users/:username/collections/:slug':   [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/collections/:id/works':               [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/posts/:postId/collections':           [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/collections':                        [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'PATCH /api/collections/:id':                   [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  'DELETE /api/collections/:id':                  [401, 401, 401, 401, 401, 401, 404, 403, 204, 204],
  'POST /api/collections/:id/works':              [401, 401, 401, 401, 401, 401, 404, 403, 201, 201],
  'PATCH /api/collections/:id/works/:postId':     [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  'DELETE /api/collections/:id/works/:postId':    [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  'POST /api/collections/:id/works/:postId/move': [401, 401, 401, 401, 401, 401, 404, 403, 200, 200],
  // Inquiries (issue 42): all need an account; a thread is its two people's alone (anyone else 404, as if none).
  // The owner is the artist of the threads the cells read, answer and change, and the client of those with
  // reference pictures (only a client adds them).
  'GET /api/inquiries':                           [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/inquiries':                          [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'GET /api/inquiries/settings':                  [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'PUT /api/inquiries/settings':                  [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/inquiries/to/:username':              [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'GET /api/inquiries/:id':                       [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'DELETE /api/inquiries/:id':                    [401, 401, 401, 401, 401, 401, 404, 404, 204, 204],
  'GET /api/inquiries/:id/messages':              [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'POST /api/inquiries/:id/messages':             [401, 401, 401, 401, 401, 401, 404, 404, 201, 201],
  'POST /api/inquiries/:id/state':                [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'POST /api/inquiries/:id/references':           [401, 401, 401, 401, 401, 401, 404, 404, 201, 201],
  'GET /api/inquiries/:id/references/:referenceId': [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  // Drafts and scheduled posts (issue 41): all need an account; a draft is its author's alone (anyone else 404).
  'GET /api/drafts':                              [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'POST /api/drafts':                             [401, 401, 401, 401, 401, 401, 404, 201, 201, 201],
  'GET /api/drafts/:id':                          [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'PUT /api/drafts/:id':                          [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'DELETE /api/drafts/:id':                       [401, 401, 401, 401, 401, 401, 404, 404, 204, 204],
  'POST /api/drafts/:id/schedule':                [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'DELETE /api/drafts/:id/schedule':              [401, 401, 401, 401, 401, 401, 404, 404, 200, 200],
  'POST /api/drafts/:id/publish':                 [401, 401, 401, 401, 401, 401, 404, 404, 201, 201],
  // Web Push (issue 44): the server's key is public; a subscription is the token's own session's (PUT subscribes
  // it to a made-up push service); renewing one is proved by the old subscription's secret, whatever the header says.
  'GET /api/push/key':                            [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/push/subscription':                   [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'PUT /api/push/subscription':                   [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  'DELETE /api/push/subscription':                [401, 401, 401, 401, 401, 401, 404, 204, 204, 204],
  'POST /api/push/renew':                         [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
  // Mastodon apps (issue 45): registering is for anyone; verify_credentials knows only an app's tokens (the web
  // app's tokens name no app: 401 in Mastodon's shape, {"error"}; an app's own tokens are oauth.test.ts's). The
  // authorization page reads for anyone; answering it needs the web app's token (an app's: 403, oauth.test.ts).
  'POST /api/v1/apps':                            [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'GET /api/v1/apps/verify_credentials':          [401, 401, 401, 401, 401, 401, 401, 401, 401, 401],
  'GET /api/oauth/authorizations/new':            [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  'POST /api/oauth/authorizations':               [401, 401, 401, 401, 401, 401, 404, 200, 200, 200],
  // A reported inquiry's reference picture (issue 42), for moderators and admins only (ROLE_ROUTES).
  'GET /api/moderation/inquiries/:id/references/:referenceId': [401, 401, 401, 401, 401, 401, 404, 403, 403, 403],
};

/** The message another user's token gets on an author-only action (the spec's words). */
const OTHER_MESSAGES: Record<string, string> = {
  'POST /api/posts/edit/:id': ERRORS.editPostNotOwner,
  'DELETE /api/posts/:id': ERRORS.deletePostNotOwner,
  'POST /api/comments/edit/:postId/:commentId': ERRORS.editCommentNotOwner,
  'POST /api/comments/delete/:postId/:commentId': ERRORS.deleteCommentNotOwner,
  'POST /api/posts/:postId/pin': ERRORS.pinNotOwner,
  'DELETE /api/posts/:postId/pin': ERRORS.pinNotOwner,
};

let ctx: TestContext;
let owner: SignedUp;
let other: SignedUp;
let deleted: SignedUp;
let tokens: Record<Kind, string | undefined>;
let moderator: SignedUp;
let admin: SignedUp;
/** The accounts whose tokens act on the owner's things: a route's set-up prepares each of them. */
const signedIn = () => [owner, other, moderator, admin];

/** A new account given a role or a suspension in its row, before its token is first used. */
async function signUpAs(change: 'moderator' | 'admin' | 'suspended'): Promise<SignedUp> {
  const who = await signUp(ctx.app);
  await queryRows(
    ctx.database.db,
    change === 'suspended'
      ? sql`update users set suspended_until = 'infinity' where id = ${who.user._id}::uuid`
      : sql`update users set role = ${change} where id = ${who.user._id}::uuid`,
  );
  return who;
}

beforeAll(async () => {
  ctx = await createTestApp();
  [owner, other, deleted] = await Promise.all([signUp(ctx.app), signUp(ctx.app), signUp(ctx.app)]);
  // A deleted user keeps a picture-less, valid token: their row is gone.
  await deleteUserRow(ctx, deleted.user._id);
  const forged = await forgedTokens(owner, ctx.config.jwtSecret);
  let suspended: SignedUp;
  [suspended, moderator, admin] = await Promise.all([signUpAs('suspended'), signUpAs('moderator'), signUpAs('admin')]);
  tokens = {
    none: undefined,
    ...forged,
    deleted: deleted.token,
    other: other.token,
    ownRaw: owner.token,
    ownBearer: `Bearer ${owner.token}`,
    suspended: suspended.token,
    moderator: moderator.token,
    admin: admin.token,
  };
});
afterAll(() => ctx.close());

/** Figures for docs/reliability.md: the cells as they are checked, per token kind. */
const checked: Record<string, { cells: number; statuses: Record<number, number> }> = {};
const figures = { routes: new Set<string>(), refusedWrites: 0 };
afterAllTests(async (failed) => {
  const cells = Object.values(checked).reduce((n, k) => n + k.cells, 0);
  await writeReliabilitySection(
    'authorization',
    [
      `\`src/security/authorization.test.ts\`: ${figures.routes.size} routes × ${KINDS.length} kinds of token = ` +
        `${cells} cells checked, one request each, against the exact status of the matrix.`,
      '',
      `- Refused writes: ${figures.refusedWrites}, each with every row of the counted tables unchanged.`,
      `- Faults found: ${failed.length === 0 ? 0 : `${failed.length} (failed: ${failed.join('; ')})`}.`,
      '',
      '| token | cells | statuses |',
      '| --- | ---: | --- |',
      ...KINDS.filter((kind) => checked[kind]).map(
        (kind) =>
          `| ${kind} | ${checked[kind]!.cells} | ${Object.entries(checked[kind]!.statuses)
            .map(([status, n]) => `${status} × ${n}`)
            .join(', ')} |`,
      ),
    ].join('\n'),
  );
});

/**
 * The owner's one import (issue 40), of an archive whose one post is skipped (a video): started and finished before
 * a cell uses it, so no job writes while the cells count rows.
 */
let ownerImportId: Promise<string> | undefined;
function ownerImport(): Promise<string> {
  ownerImportId ??= (async () => {
    const zip = new ZipFile();
    const posts = [{ media: [{ uri: 'media/v.mp4', creation_timestamp: 1600000000, title: 'A reel' }] }];
    zip.addBuffer(Buffer.from(JSON.stringify(posts)), 'content/posts_1.json');
    zip.addBuffer(Buffer.alloc(16), 'media/v.mp4');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const { payload, contentType } = multipart([{ name: 'file', data: Buffer.concat(chunks), filename: 'a.zip' }]);
    const uploaded = await ok({
      method: 'POST',
      url: '/api/imports',
      payload,
      headers: { ...as(owner), 'content-type': contentType },
    });
    const id = (uploaded.json() as { import: { _id: string } }).import._id;
    await ok({ method: 'POST', url: `/api/imports/${id}/start`, headers: as(owner), payload: {} });
    for (;;) {
      const current = await ok({ method: 'GET', url: `/api/imports/${id}`, headers: as(owner) });
      if ((current.json() as { import: { state: string } }).import.state === 'done') return id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return ownerImportId;
}

/**
 * Every row of the counted tables, as a fingerprint per table: its rows' count and the sum of a 64-bit hash of
 * each row's text, so a changed, added or removed row changes its table's. A refused write must leave them
 * exactly as they were. (The rows' own text, sorted, was 160 KB a snapshot: 15 % of this file's time.)
 */
async function snapshot(): Promise<string> {
  const parts = COUNTED_TABLES.map(
    (t) => `(select count(*) || ' rows, ' || coalesce(sum(hashtextextended(t::text, 0)), 0) from ${t} t) as ${t}`,
  );
  const [row] = await queryRows<Record<string, string>>(ctx.database.db, sql.raw(`select ${parts.join(', ')}`));
  return JSON.stringify(row);
}

const as = (who: SignedUp, extra: Record<string, string> = {}) => ({
  authorization: who.token,
  prefer: 'return=minimal',
  ...extra,
});
let blockedServers = 0;
/** Someone on another server for a cell (issue 39): their `remote_actors` id. */
async function remotePerson(): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`insert into remote_actors (iri, handle, inbox)
        values (${`https://matrix.example/users/${(blockedServers += 1)}`}, 'someone@matrix.example',
          'https://matrix.example/inbox') returning id`,
  );
  return row!.id;
}
/** A server block of its own for a cell (issue 39): its id. */
async function serverBlock(): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`insert into server_blocks (domain, severity, created_by_username)
        values (${`matrix-${(blockedServers += 1)}.example`}, 'suspend', 'matrix') returning id`,
  );
  return row!.id;
}

async function ok(options: InjectOptions) {
  const response = await ctx.app.inject(options);
  if (response.statusCode >= 300) throw new Error(`setup ${options.url}: ${response.statusCode} ${response.body}`);
  return response;
}

/** The owner's series the cells share (issue 41), made once; a cell that deletes one makes its own. */
let sharedSeries: Promise<{ id: string; slug: string }> | undefined;
async function newSeries(): Promise<{ id: string; slug: string }> {
  const made = await ok({
    method: 'POST',
    url: '/api/series',
    headers: as(owner),
    payload: { title: 'Matrix series' },
  });
  const { _id: id, slug } = (made.json() as { series: { _id: string; slug: string } }).series;
  return { id, slug };
}
const ownerSeries = () => (sharedSeries ??= newSeries());
/** A new work of the owner's, added to the shared series. */
async function seriesWork(): Promise<{ seriesId: string; postId: string }> {
  const { id: seriesId } = await ownerSeries();
  const postId = await createPost(ctx.app, owner);
  await ok({ method: 'POST', url: `/api/series/${seriesId}/works`, headers: as(owner), payload: { postId } });
  return { seriesId, postId };
}

/** The owner's public collection the cells share (issue 41), made once; a cell that deletes one makes its own. */
let sharedCollection: Promise<{ id: string; slug: string }> | undefined;
async function newCollection(): Promise<{ id: string; slug: string }> {
  const made = await ok({
    method: 'POST',
    url: '/api/collections',
    headers: as(owner),
    payload: { title: 'Matrix collection', visibility: 'public' },
  });
  const { _id: id, slug } = (made.json() as { collection: { _id: string; slug: string } }).collection;
  return { id, slug };
}
const ownerCollection = () => (sharedCollection ??= newCollection());
/** A new work of the owner's, added to the shared collection. */
async function collectionWork(): Promise<{ collectionId: string; postId: string }> {
  const { id: collectionId } = await ownerCollection();
  const postId = await createPost(ctx.app, owner);
  await ok({ method: 'POST', url: `/api/collections/${collectionId}/works`, headers: as(owner), payload: { postId } });
  return { collectionId, postId };
}

/** A new draft of the owner's (issue 41): its id and revision. */
async function ownerDraft(content = 'A matrix draft'): Promise<{ id: string; revision: number }> {
  const made = await ok({ method: 'POST', url: '/api/drafts', headers: as(owner), payload: { content } });
  const { _id: id, revision } = (made.json() as { draft: { _id: string; revision: number } }).draft;
  return { id, revision };
}
/** The owner's draft the reading and changing cells share, made once. */
let sharedDraft: Promise<{ id: string; revision: number }> | undefined;
const sharedOwnerDraft = () => (sharedDraft ??= ownerDraft());
const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

/** A new inquiry (issue 42) from `from` to `to` (fresh accounts when not given); answers its id. */
async function newInquiry(from?: SignedUp, to?: SignedUp): Promise<string> {
  const client = from ?? (await signUp(ctx.app));
  const artist = to ?? (await signUp(ctx.app));
  const made = await ok({
    method: 'POST',
    url: '/api/inquiries',
    headers: as(client),
    payload: { artist: artist.user.username, body: 'A matrix commission' },
  });
  return (made.json() as { inquiry: { _id: string } }).inquiry._id;
}

/** A device's subscription to a made-up push service (issue 44), as PushSubscription.toJSON() gives it. */
const pushKeys = {
  p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
  auth: 'AAAAAAAAAAAAAAAAAAAAAA',
};
const pushDevice = (name = 'authorization-matrix') => ({ endpoint: `https://push.invalid/${name}`, keys: pushKeys });
let pushDevices = 0;

const OOB = 'urn:ietf:wg:oauth:2.0:oob';
let matrixApp: Promise<string> | undefined;
/** The parameters of an authorization page (issue 45) for an app registered once, answered out of band. */
async function authorization(): Promise<Record<string, string>> {
  matrixApp ??= ok({
    method: 'POST',
    url: '/api/v1/apps',
    payload: { client_name: 'The matrix app', redirect_uris: OOB, scopes: 'read write' },
  }).then((made) => (made.json() as { client_id: string }).client_id);
  return { client_id: await matrixApp, redirect_uri: OOB, response_type: 'code', scope: 'read' };
}

/** Unpins every pinned work of the owner, so that each cell starts below the limit of pinned works. */
async function unpinAll() {
  const pinned = await ok({ method: 'GET', url: `/api/users/${owner.user.username}/pins` });
  for (const post of pinned.json().posts as { _id: string }[]) {
    await ok({ method: 'DELETE', url: `/api/posts/${post._id}/pin`, headers: as(owner) });
  }
}

/**
 * The headers of a new session of the cell's account, its token as the cell sends it (issue 24): for the
 * kinds whose token names a live session; the others keep their own token.
 */
async function freshSession(kind: Kind): Promise<{ headers?: Record<string, string> }> {
  const who = { other, ownRaw: owner, ownBearer: owner, moderator, admin }[kind as string];
  if (!who) return {};
  const response = await ok({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: who.user.username, password: who.password },
  });
  const token = response.json().encodedToken as string;
  return { headers: { authorization: kind === 'ownBearer' ? `Bearer ${token}` : token } };
}

/** A passkey's answer to a challenge the server never gave. */
const madeUpPasskey = () => ({
  id: 'bWFkZS11cA',
  rawId: 'bWFkZS11cA',
  type: 'public-key',
  response: {
    clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: 'bm9uZQ' })).toString('base64url'),
  },
  clientExtensionResults: {},
});

/** Builds, on fresh rows, the request of one route (the owner's rows; the viewer acts with the cell's token). */
const REQUESTS: Record<string, (kind: Kind) => Promise<InjectOptions>> = {
  'GET /api/health': async () => ({ method: 'GET', url: '/api/health' }),
  'GET /api/ready': async () => ({ method: 'GET', url: '/api/ready' }),
  'GET /api/test-todos': async () => ({ method: 'GET', url: '/api/test-todos' }),
  'POST /api/auth/signup': async () => ({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      fullname: 'Rosa Parks',
      email: 'r@example.com',
      username: uniqueUsername('az'),
      password: 'long enough pw',
    },
  }),
  'POST /api/auth/login': async () => ({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: owner.user.username, password: owner.password },
  }),
  'POST /api/auth/verify': async (kind) => ({
    method: 'POST',
    url: '/api/auth/verify',
    payload: tokens[kind] === undefined ? {} : { encodedToken: tokens[kind] },
  }),
  'POST /api/auth/forgot': async () => ({
    method: 'POST',
    url: '/api/auth/forgot',
    payload: { login: owner.user.username },
  }),
  'POST /api/auth/reset': async () => ({
    method: 'POST',
    url: '/api/auth/reset',
    payload: { token: 'A'.repeat(43), password: 'a long new password' },
  }),
  'POST /api/auth/verify-email': async () => ({
    method: 'POST',
    url: '/api/auth/verify-email',
    payload: { token: 'A'.repeat(43) },
  }),
  'POST /api/auth/verify-email/resend': async () => ({ method: 'POST', url: '/api/auth/verify-email/resend' }),
  'POST /api/auth/logout': async (kind) => ({
    method: 'POST',
    url: '/api/auth/logout',
    ...(await freshSession(kind)),
  }),
  'GET /api/sessions': async () => ({ method: 'GET', url: '/api/sessions' }),
  'DELETE /api/sessions/:id': async () => {
    const ownerSession = await freshSession('ownRaw');
    const listed = await ok({ method: 'GET', url: '/api/sessions', headers: ownerSession.headers });
    const id = (listed.json().sessions as { id: string; current: boolean }[]).find((s) => s.current)!.id;
    return { method: 'DELETE', url: `/api/sessions/${id}` };
  },
  'POST /api/sessions/end-others': async () => ({ method: 'POST', url: '/api/sessions/end-others' }),
  'POST /api/auth/password': async () => ({
    method: 'POST',
    url: '/api/auth/password',
    payload: { currentPassword: 'whatever it is', newPassword: 'password' },
  }),
  'GET /api/users': async () => ({ method: 'GET', url: '/api/users' }),
  'GET /api/users/suggestions': async () => ({ method: 'GET', url: '/api/users/suggestions' }),
  'GET /api/users/bookmark': async () => ({ method: 'GET', url: '/api/users/bookmark' }),
  'POST /api/users/bookmark/:postId': async () => ({
    method: 'POST',
    url: `/api/users/bookmark/${await createPost(ctx.app, owner)}`,
  }),
  'POST /api/users/remove-bookmark/:postId': async () => {
    const postId = await createPost(ctx.app, owner);
    for (const who of signedIn()) {
      await ok({ method: 'POST', url: `/api/users/bookmark/${postId}`, headers: as(who) });
    }
    return { method: 'POST', url: `/api/users/remove-bookmark/${postId}` };
  },
  'GET /api/users/by-username/:username': async () => ({
    method: 'GET',
    url: `/api/users/by-username/${owner.user.username}`,
  }),
  'GET /api/users/:userId': async () => ({ method: 'GET', url: `/api/users/${owner.user._id}` }),
  'GET /api/users/:userId/followers': async () => ({ method: 'GET', url: `/api/users/${owner.user._id}/followers` }),
  'POST /api/users/follow/:followUserId': async () => {
    const target = await signUp(ctx.app);
    return { method: 'POST', url: `/api/users/follow/${target.user._id}` };
  },
  'POST /api/users/unfollow/:followUserId': async () => {
    const target = await signUp(ctx.app);
    for (const who of signedIn()) {
      await ok({ method: 'POST', url: `/api/users/follow/${target.user._id}`, headers: as(who) });
    }
    return { method: 'POST', url: `/api/users/unfollow/${target.user._id}` };
  },
  'POST /api/users/edit': async () => ({
    method: 'POST',
    url: '/api/users/edit',
    payload: { userData: { bio: `bio ${Math.random()}` } },
  }),
  'GET /api/posts': async () => ({ method: 'GET', url: '/api/posts' }),
  'GET /api/feed': async () => ({ method: 'GET', url: '/api/feed' }),
  'GET /api/posts/liked': async () => ({ method: 'GET', url: '/api/posts/liked' }),
  'GET /api/posts/user/:username': async () => ({ method: 'GET', url: `/api/posts/user/${owner.user.username}` }),
  'GET /api/posts/:id': async () => ({ method: 'GET', url: `/api/posts/${await createPost(ctx.app, owner)}` }),
  'GET /api/posts/:id/history': async () => {
    const postId = await createPost(ctx.app, owner);
    await ok({
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      headers: as(owner),
      payload: { postData: { content: 'edited for the matrix' } },
    });
    return { method: 'GET', url: `/api/posts/${postId}/history` };
  },
  'GET /api/posts/:id/history/pictures/:mediaId': async () => {
    // A picture the edit took out, which the history keeps for the artist.
    const kept = await uploadPicture(ctx.app, owner);
    const created = await ok({
      method: 'POST',
      url: '/api/posts',
      headers: as(owner),
      payload: { content: 'A study for the matrix', mediaIds: [kept] },
    });
    const postId = (created.json() as { post: { _id: string } }).post._id;
    await ok({
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      headers: as(owner),
      payload: { postData: { mediaIds: [] } },
    });
    return { method: 'GET', url: `/api/posts/${postId}/history/pictures/${kept}` };
  },
  'POST /api/posts': async () => ({ method: 'POST', url: '/api/posts', payload: { content: 'matrix post' } }),
  'POST /api/posts/edit/:id': async () => ({
    method: 'POST',
    url: `/api/posts/edit/${await createPost(ctx.app, owner)}`,
    payload: { postData: { content: 'edited by the matrix' } },
  }),
  'DELETE /api/posts/:id': async () => ({ method: 'DELETE', url: `/api/posts/${await createPost(ctx.app, owner)}` }),
  'POST /api/posts/like/:id': async () => ({
    method: 'POST',
    url: `/api/posts/like/${await createPost(ctx.app, owner)}`,
  }),
  'POST /api/posts/dislike/:id': async () => {
    const postId = await createPost(ctx.app, owner);
    for (const who of signedIn()) await ok({ method: 'POST', url: `/api/posts/like/${postId}`, headers: as(who) });
    return { method: 'POST', url: `/api/posts/dislike/${postId}` };
  },
  'POST /api/posts/:id/comment': async () => ({
    method: 'POST',
    url: `/api/posts/${await createPost(ctx.app, owner)}/comment`,
    payload: { commentData: { content: 'matrix comment' } },
  }),
  'GET /api/comments/:postId': async () => ({
    method: 'GET',
    url: `/api/comments/${await createPost(ctx.app, owner)}`,
  }),
  'POST /api/comments/edit/:postId/:commentId': async () => {
    const postId = await createPost(ctx.app, owner);
    const commentId = await createComment(ctx.app, owner, postId);
    return { method: 'POST', url: `/api/comments/edit/${postId}/${commentId}`, payload: { content: 'edited' } };
  },
  'POST /api/comments/delete/:postId/:commentId': async () => {
    const postId = await createPost(ctx.app, owner);
    const commentId = await createComment(ctx.app, owner, postId);
    return { method: 'POST', url: `/api/comments/delete/${postId}/${commentId}` };
  },
  'POST /api/comments/upvote/:postId/:commentId': async () => {
    const postId = await createPost(ctx.app, owner);
    return { method: 'POST', url: `/api/comments/upvote/${postId}/${await createComment(ctx.app, owner, postId)}` };
  },
  'POST /api/comments/downvote/:postId/:commentId': async () => {
    const postId = await createPost(ctx.app, owner);
    return { method: 'POST', url: `/api/comments/downvote/${postId}/${await createComment(ctx.app, owner, postId)}` };
  },
  'GET /api/search': async () => ({ method: 'GET', url: '/api/search?q=painting' }),
  'GET /api/tags': async () => ({ method: 'GET', url: '/api/tags?prefix=wat' }),
  'GET /api/tags/:tag': async () => ({ method: 'GET', url: '/api/tags/watercolour' }),
  'GET /api/tags/:tag/posts': async () => ({ method: 'GET', url: '/api/tags/watercolour/posts' }),
  'POST /api/tags/:tag/follow': async () => ({ method: 'POST', url: '/api/tags/watercolour/follow' }),
  'DELETE /api/tags/:tag/follow': async () => {
    for (const who of signedIn()) {
      await ok({ method: 'POST', url: '/api/tags/ink/follow', headers: { authorization: who.token } });
    }
    return { method: 'DELETE', url: '/api/tags/ink/follow' };
  },
  'GET /api/users/me/tags': async () => ({ method: 'GET', url: '/api/users/me/tags' }),
  'GET /api/users/mentionable': async () => ({ method: 'GET', url: '/api/users/mentionable?prefix=a' }),
  'GET /api/users/:username/pins': async () => {
    const postId = await createPost(ctx.app, owner);
    await unpinAll();
    await ok({ method: 'POST', url: `/api/posts/${postId}/pin`, headers: as(owner) });
    return { method: 'GET', url: `/api/users/${owner.user.username}/pins` };
  },
  'POST /api/posts/:postId/pin': async () => {
    await unpinAll();
    return { method: 'POST', url: `/api/posts/${await createPost(ctx.app, owner)}/pin`, payload: { position: 0 } };
  },
  'DELETE /api/posts/:postId/pin': async () => {
    await unpinAll();
    const postId = await createPost(ctx.app, owner);
    await ok({ method: 'POST', url: `/api/posts/${postId}/pin`, headers: as(owner) });
    return { method: 'DELETE', url: `/api/posts/${postId}/pin` };
  },
  'GET /api/users/:username/series': async () => {
    await ownerSeries();
    return { method: 'GET', url: `/api/users/${owner.user.username}/series` };
  },
  'GET /api/users/:username/series/:slug': async () => ({
    method: 'GET',
    url: `/api/users/${owner.user.username}/series/${(await ownerSeries()).slug}`,
  }),
  'GET /api/users/:username/series/:slug/feed.atom': async () => ({
    method: 'GET',
    url: `/api/users/${owner.user.username}/series/${(await ownerSeries()).slug}/feed.atom`,
  }),
  'GET /api/series/:id/works': async () => ({
    method: 'GET',
    url: `/api/series/${(await seriesWork()).seriesId}/works`,
  }),
  'GET /api/posts/:postId/series': async () => ({
    method: 'GET',
    url: `/api/posts/${(await seriesWork()).postId}/series`,
  }),
  'POST /api/views': async () => ({
    method: 'POST',
    url: '/api/views',
    payload: { postId: await createPost(ctx.app, owner), source: 'home' },
  }),
  'GET /api/insights/profile': async () => ({ method: 'GET', url: '/api/insights/profile?days=7' }),
  'GET /api/insights/posts/:postId': async () => ({
    method: 'GET',
    url: `/api/insights/posts/${await createPost(ctx.app, owner)}`,
  }),
  'POST /api/series': async () => ({ method: 'POST', url: '/api/series', payload: { title: 'A matrix cell' } }),
  'PATCH /api/series/:id': async () => ({
    method: 'PATCH',
    url: `/api/series/${(await ownerSeries()).id}`,
    payload: { description: 'Changed by the matrix' },
  }),
  'DELETE /api/series/:id': async () => ({ method: 'DELETE', url: `/api/series/${(await newSeries()).id}` }),
  'POST /api/series/:id/works': async () => ({
    method: 'POST',
    url: `/api/series/${(await ownerSeries()).id}/works`,
    payload: { postId: await createPost(ctx.app, owner) },
  }),
  'PATCH /api/series/:id/works/:postId': async () => {
    const { seriesId, postId } = await seriesWork();
    return { method: 'PATCH', url: `/api/series/${seriesId}/works/${postId}`, payload: { chapter: 'Matrix' } };
  },
  'DELETE /api/series/:id/works/:postId': async () => {
    const { seriesId, postId } = await seriesWork();
    return { method: 'DELETE', url: `/api/series/${seriesId}/works/${postId}` };
  },
  'POST /api/series/:id/works/:postId/move': async () => {
    const { seriesId, postId } = await seriesWork();
    return { method: 'POST', url: `/api/series/${seriesId}/works/${postId}/move`, payload: { after: null } };
  },
  'POST /api/series/:id/follow': async () => ({
    method: 'POST',
    url: `/api/series/${(await ownerSeries()).id}/follow`,
  }),
  'DELETE /api/series/:id/follow': async () => {
    const { id } = await ownerSeries();
    for (const who of signedIn()) await ok({ method: 'POST', url: `/api/series/${id}/follow`, headers: as(who) });
    return { method: 'DELETE', url: `/api/series/${id}/follow` };
  },
  'GET /api/users/:username/commissions': async () => ({
    method: 'GET',
    url: `/api/users/${owner.user.username}/commissions`,
  }),
  'PUT /api/commissions': async () => ({
    method: 'PUT',
    url: '/api/commissions',
    payload: { open: true, kinds: ['portrait'], price: { currency: 'EUR', min: 40, max: 90 } },
  }),
  'POST /api/users/:username/commissions/watch': async () => {
    // Only followers may ask: everyone but the owner follows them (already following is a 400, and fine here).
    for (const who of signedIn().filter((each) => each !== owner)) {
      await ctx.app.inject({ method: 'POST', url: `/api/users/follow/${owner.user._id}`, headers: as(who) });
    }
    return { method: 'POST', url: `/api/users/${owner.user.username}/commissions/watch` };
  },
  'DELETE /api/users/:username/commissions/watch': async () => ({
    method: 'DELETE',
    url: `/api/users/${owner.user.username}/commissions/watch`,
  }),
  'GET /api/users/:username/collections': async () => {
    await ownerCollection();
    return { method: 'GET', url: `/api/users/${owner.user.username}/collections` };
  },
  'GET /api/users/:username/collections/:slug': async () => ({
    method: 'GET',
    url: `/api/users/${owner.user.username}/collections/${(await ownerCollection()).slug}`,
  }),
  'GET /api/collections/:id/works': async () => ({
    method: 'GET',
    url: `/api/collections/${(await collectionWork()).collectionId}/works`,
  }),
  'GET /api/posts/:postId/collections': async () => ({
    method: 'GET',
    url: `/api/posts/${(await collectionWork()).postId}/collections`,
  }),
  'POST /api/collections': async () => ({
    method: 'POST',
    url: '/api/collections',
    payload: { title: 'A matrix cell' },
  }),
  'PATCH /api/collections/:id': async () => ({
    method: 'PATCH',
    url: `/api/collections/${(await ownerCollection()).id}`,
    payload: { description: 'Changed by the matrix' },
  }),
  'DELETE /api/collections/:id': async () => ({
    method: 'DELETE',
    url: `/api/collections/${(await newCollection()).id}`,
  }),
  'POST /api/collections/:id/works': async () => ({
    method: 'POST',
    url: `/api/collections/${(await ownerCollection()).id}/works`,
    payload: { postId: await createPost(ctx.app, owner) },
  }),
  'PATCH /api/collections/:id/works/:postId': async () => {
    const { collectionId, postId } = await collectionWork();
    return { method: 'PATCH', url: `/api/collections/${collectionId}/works/${postId}`, payload: { note: 'Matrix' } };
  },
  'DELETE /api/collections/:id/works/:postId': async () => {
    const { collectionId, postId } = await collectionWork();
    return { method: 'DELETE', url: `/api/collections/${collectionId}/works/${postId}` };
  },
  'POST /api/collections/:id/works/:postId/move': async () => {
    const { collectionId, postId } = await collectionWork();
    return {
      method: 'POST',
      url: `/api/collections/${collectionId}/works/${postId}/move`,
      payload: { after: null },
    };
  },
  'PUT /api/users/me/pins': async () => {
    await unpinAll();
    const [first, second] = [await createPost(ctx.app, owner), await createPost(ctx.app, owner)];
    for (const postId of [first, second]) {
      await ok({ method: 'POST', url: `/api/posts/${postId}/pin`, headers: as(owner) });
    }
    return { method: 'PUT', url: '/api/users/me/pins', payload: { postIds: [second, first] } };
  },
  'POST /api/reports': async () => ({
    method: 'POST',
    url: '/api/reports',
    payload: { targetType: 'post', targetId: await createPost(ctx.app, await signUp(ctx.app)), reason: 'spam' },
  }),
  'GET /api/moderation/reports': async () => ({ method: 'GET', url: '/api/moderation/reports' }),
  'POST /api/moderation/actions': async () => ({
    method: 'POST',
    url: '/api/moderation/actions',
    payload: { targetType: 'post', targetId: await createPost(ctx.app, owner), action: 'remove', reason: 'matrix' },
  }),
  'GET /api/moderation/audit': async () => ({ method: 'GET', url: '/api/moderation/audit' }),
  'GET /api/moderation/servers': async () => ({ method: 'GET', url: '/api/moderation/servers' }),
  'POST /api/moderation/servers': async () => ({
    method: 'POST',
    url: '/api/moderation/servers',
    payload: { domain: `matrix-${(blockedServers += 1)}.example`, severity: 'suspend' },
  }),
  'PATCH /api/moderation/servers/:id': async () => ({
    method: 'PATCH',
    url: `/api/moderation/servers/${await serverBlock()}`,
    payload: { severity: 'silence', reason: 'matrix' },
  }),
  'DELETE /api/moderation/servers/:id': async () => ({
    method: 'DELETE',
    url: `/api/moderation/servers/${await serverBlock()}`,
  }),
  'PUT /api/admin/users/:username/role': async () => ({
    method: 'PUT',
    url: `/api/admin/users/${(await signUp(ctx.app)).user.username}/role`,
    payload: { role: 'moderator' },
  }),
  'GET /api/admin/jobs': async () => ({ method: 'GET', url: '/api/admin/jobs' }),
  'POST /api/admin/jobs/:id/retry': async () => ({
    method: 'POST',
    url: '/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry',
  }),
  'POST /api/users/:username/block': async () => ({
    method: 'POST',
    url: `/api/users/${(await signUp(ctx.app)).user.username}/block`,
  }),
  'DELETE /api/users/:username/block': async () => {
    const target = await signUp(ctx.app);
    for (const who of signedIn()) {
      await ok({ method: 'POST', url: `/api/users/${target.user.username}/block`, headers: as(who) });
    }
    return { method: 'DELETE', url: `/api/users/${target.user.username}/block` };
  },
  'POST /api/remote-people/:id/block': async () => ({
    method: 'POST',
    url: `/api/remote-people/${await remotePerson()}/block`,
  }),
  'DELETE /api/remote-people/:id/block': async () => {
    const id = await remotePerson();
    for (const who of signedIn()) {
      await ok({ method: 'POST', url: `/api/remote-people/${id}/block`, headers: as(who) });
    }
    return { method: 'DELETE', url: `/api/remote-people/${id}/block` };
  },
  'GET /api/federation/lookup': async () => ({ method: 'GET', url: '/api/federation/lookup?q=nobody' }),
  'GET /api/federation/aliases': async () => ({ method: 'GET', url: '/api/federation/aliases' }),
  'PUT /api/federation/aliases': async () => ({
    method: 'PUT',
    url: '/api/federation/aliases',
    payload: { accounts: [] },
  }),
  'GET /api/federation/move': async () => ({ method: 'GET', url: '/api/federation/move' }),
  'POST /api/federation/move': async () => ({
    method: 'POST',
    url: '/api/federation/move',
    payload: { account: `@${(await signUp(ctx.app)).user.username}@localhost:80` },
  }),
  'DELETE /api/federation/move': async () => ({ method: 'DELETE', url: '/api/federation/move' }),
  'POST /api/users/:username/mute': async () => ({
    method: 'POST',
    url: `/api/users/${(await signUp(ctx.app)).user.username}/mute`,
  }),
  'DELETE /api/users/:username/mute': async () => {
    const target = await signUp(ctx.app);
    for (const who of signedIn()) {
      await ok({ method: 'POST', url: `/api/users/${target.user.username}/mute`, headers: as(who) });
    }
    return { method: 'DELETE', url: `/api/users/${target.user.username}/mute` };
  },
  'GET /api/users/me/blocks': async () => ({ method: 'GET', url: '/api/users/me/blocks' }),
  'GET /api/users/me/mutes': async () => ({ method: 'GET', url: '/api/users/me/mutes' }),
  'GET /api/users/me/muted-words': async () => ({ method: 'GET', url: '/api/users/me/muted-words' }),
  'POST /api/users/me/muted-words': async () => ({
    method: 'POST',
    url: '/api/users/me/muted-words',
    payload: { word: uniqueUsername('w') },
  }),
  'DELETE /api/users/me/muted-words/:word': async () => {
    const word = uniqueUsername('w');
    for (const who of signedIn()) {
      await ok({ method: 'POST', url: '/api/users/me/muted-words', headers: as(who), payload: { word } });
    }
    return { method: 'DELETE', url: `/api/users/me/muted-words/${word}` };
  },
  'GET /api/users/:username/feed.atom': async () => ({
    method: 'GET',
    url: `/api/users/${owner.user.username}/feed.atom`,
  }),
  'GET /api/users/:username/follow-from': async () => ({
    method: 'GET',
    url: `/api/users/${owner.user.username}/follow-from?account=`,
  }),
  'POST /api/account/delete': async () => ({ method: 'POST', url: '/api/account/delete', payload: { password: '' } }),
  'GET /api/notifications': async () => ({ method: 'GET', url: '/api/notifications' }),
  'GET /api/notifications/unread-count': async () => ({ method: 'GET', url: '/api/notifications/unread-count' }),
  'GET /api/live': async () => ({ method: 'GET', url: '/api/live' }),
  'POST /api/account/export': async () => ({ method: 'POST', url: '/api/account/export' }),
  'GET /api/account/export/:token': async () => {
    const link = await ok({ method: 'POST', url: '/api/account/export', headers: as(owner) });
    return { method: 'GET', url: link.json().url };
  },
  'GET /api/two-factor': async () => ({ method: 'GET', url: '/api/two-factor' }),
  'GET /api/account/security-log': async () => ({ method: 'GET', url: '/api/account/security-log' }),
  'POST /api/imports': async () => {
    await ownerImport();
    const { payload, contentType } = multipart([{ name: 'file', data: Buffer.from('not a zip'), filename: 'a.zip' }]);
    return { method: 'POST', url: '/api/imports', payload, headers: { 'content-type': contentType } };
  },
  'GET /api/imports': async () => ({ method: 'GET', url: '/api/imports' }),
  'GET /api/imports/:id': async () => ({ method: 'GET', url: `/api/imports/${await ownerImport()}` }),
  'GET /api/imports/:id/items': async () => ({ method: 'GET', url: `/api/imports/${await ownerImport()}/items` }),
  'POST /api/imports/:id/start': async () => ({
    method: 'POST',
    url: `/api/imports/${await ownerImport()}/start`,
    payload: {},
  }),
  'POST /api/account/email': async () => ({
    method: 'POST',
    url: '/api/account/email',
    payload: { email: 'ana@example.com' },
  }),
  'POST /api/auth/reauthenticate': async () => ({ method: 'POST', url: '/api/auth/reauthenticate', payload: {} }),
  'POST /api/auth/reauthenticate/passkey-options': async () => ({
    method: 'POST',
    url: '/api/auth/reauthenticate/passkey-options',
  }),
  'POST /api/auth/undo-email': async () => ({
    method: 'POST',
    url: '/api/auth/undo-email',
    payload: { token: 'A'.repeat(43) },
  }),
  'POST /api/two-factor/totp/setup': async () => ({ method: 'POST', url: '/api/two-factor/totp/setup' }),
  'POST /api/two-factor/totp/confirm': async () => ({
    method: 'POST',
    url: '/api/two-factor/totp/confirm',
    payload: { code: '' },
  }),
  'POST /api/two-factor/totp/disable': async () => ({
    method: 'POST',
    url: '/api/two-factor/totp/disable',
    payload: { code: '' },
  }),
  'POST /api/two-factor/passkeys/options': async () => ({ method: 'POST', url: '/api/two-factor/passkeys/options' }),
  'POST /api/two-factor/passkeys': async () => ({
    method: 'POST',
    url: '/api/two-factor/passkeys',
    payload: { credential: madeUpPasskey() },
  }),
  'DELETE /api/two-factor/passkeys/:id': async () => {
    const [row] = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`insert into passkeys (user_id, credential_id, public_key, name)
          values (${owner.user._id}::uuid, ${uniqueUsername('cred')}, 'pQECAyYgASFYIA', 'matrix') returning id`,
    );
    return { method: 'DELETE', url: `/api/two-factor/passkeys/${row!.id}` };
  },
  'POST /api/auth/login/second-factor': async () => ({
    method: 'POST',
    url: '/api/auth/login/second-factor',
    payload: { ticket: 'made-up-ticket', code: '' },
  }),
  'POST /api/auth/passkey/options': async () => ({ method: 'POST', url: '/api/auth/passkey/options', payload: {} }),
  'POST /api/auth/passkey': async () => ({
    method: 'POST',
    url: '/api/auth/passkey',
    payload: { credential: { ...madeUpPasskey(), response: {} } },
  }),
  'POST /api/notifications/read': async () => ({
    method: 'POST',
    url: '/api/notifications/read',
    payload: { all: true },
  }),
  'POST /api/media': async () => {
    const { payload, contentType } = multipart([
      { name: 'file', data: await tinyPng(), filename: 'p.png', contentType: 'image/png' },
    ]);
    return { method: 'POST', url: '/api/media', payload, headers: { 'content-type': contentType } };
  },
  'POST /api/media/:id/alt': async () => ({
    method: 'POST',
    url: `/api/media/${await uploadPicture(ctx.app, owner)}/alt`,
    payload: { alt: 'changed by the matrix' },
  }),
  'GET /api/inquiries': async () => ({ method: 'GET', url: '/api/inquiries?as=artist' }),
  'POST /api/inquiries': async () => ({
    method: 'POST',
    url: '/api/inquiries',
    payload: { artist: (await signUp(ctx.app)).user.username, body: 'A matrix commission' },
  }),
  'GET /api/inquiries/settings': async () => ({ method: 'GET', url: '/api/inquiries/settings' }),
  'PUT /api/inquiries/settings': async () => ({
    method: 'PUT',
    url: '/api/inquiries/settings',
    payload: { accepting: 'everyone', mail: false },
  }),
  'GET /api/inquiries/to/:username': async () => ({
    method: 'GET',
    url: `/api/inquiries/to/${(await signUp(ctx.app)).user.username}`,
  }),
  'GET /api/inquiries/:id': async () => ({
    method: 'GET',
    url: `/api/inquiries/${await newInquiry(undefined, owner)}`,
  }),
  'DELETE /api/inquiries/:id': async () => ({
    method: 'DELETE',
    url: `/api/inquiries/${await newInquiry(undefined, owner)}`,
  }),
  'GET /api/inquiries/:id/messages': async () => ({
    method: 'GET',
    url: `/api/inquiries/${await newInquiry(undefined, owner)}/messages`,
  }),
  'POST /api/inquiries/:id/messages': async () => ({
    method: 'POST',
    url: `/api/inquiries/${await newInquiry(undefined, owner)}/messages`,
    payload: { body: 'An answer from the matrix' },
  }),
  'POST /api/inquiries/:id/state': async () => ({
    method: 'POST',
    url: `/api/inquiries/${await newInquiry(undefined, owner)}/state`,
    payload: { state: 'accepted' },
  }),
  'POST /api/inquiries/:id/references': async () => {
    const { payload, contentType } = multipart([
      { name: 'file', data: await tinyPng(), filename: 'p.png', contentType: 'image/png' },
    ]);
    return {
      method: 'POST',
      url: `/api/inquiries/${await newInquiry(owner)}/references`,
      payload,
      headers: { 'content-type': contentType },
    };
  },
  'GET /api/inquiries/:id/references/:referenceId': async () => {
    const id = await newInquiry(owner);
    const { payload, contentType } = multipart([
      { name: 'file', data: await tinyPng(), filename: 'p.png', contentType: 'image/png' },
    ]);
    const added = await ok({
      method: 'POST',
      url: `/api/inquiries/${id}/references`,
      payload,
      headers: as(owner, { 'content-type': contentType }),
    });
    return { method: 'GET', url: (added.json() as { reference: { url: string } }).reference.url };
  },
  'GET /api/drafts': async () => {
    await sharedOwnerDraft();
    return { method: 'GET', url: '/api/drafts' };
  },
  'POST /api/drafts': async () => ({ method: 'POST', url: '/api/drafts', payload: { content: 'A matrix cell' } }),
  'GET /api/drafts/:id': async () => ({ method: 'GET', url: `/api/drafts/${(await sharedOwnerDraft()).id}` }),
  'PUT /api/drafts/:id': async () => {
    const { id } = await sharedOwnerDraft();
    const current = await ok({ method: 'GET', url: `/api/drafts/${id}`, headers: as(owner) });
    const { revision } = (current.json() as { draft: { revision: number } }).draft;
    return { method: 'PUT', url: `/api/drafts/${id}`, payload: { revision, content: 'Changed by a cell' } };
  },
  'DELETE /api/drafts/:id': async () => ({ method: 'DELETE', url: `/api/drafts/${(await ownerDraft()).id}` }),
  'POST /api/drafts/:id/schedule': async () => ({
    method: 'POST',
    url: `/api/drafts/${(await sharedOwnerDraft()).id}/schedule`,
    payload: { at: inADay(), timeZone: 'Europe/Paris' },
  }),
  'DELETE /api/drafts/:id/schedule': async () => {
    const { id } = await sharedOwnerDraft();
    const url = `/api/drafts/${id}/schedule`;
    await ok({ method: 'POST', url, headers: as(owner), payload: { at: inADay(), timeZone: 'UTC' } });
    return { method: 'DELETE', url };
  },
  'POST /api/drafts/:id/publish': async () => ({
    method: 'POST',
    url: `/api/drafts/${(await ownerDraft('A matrix draft to publish')).id}/publish`,
  }),
  'GET /api/push/key': async () => ({ method: 'GET', url: '/api/push/key' }),
  'GET /api/push/subscription': async () => ({ method: 'GET', url: '/api/push/subscription' }),
  'PUT /api/push/subscription': async () => ({ method: 'PUT', url: '/api/push/subscription', payload: pushDevice() }),
  'DELETE /api/push/subscription': async () => ({ method: 'DELETE', url: '/api/push/subscription' }),
  'POST /api/push/renew': async () => {
    // The owner's session subscribes a device of its own; its renewal is proved by the device's secret alone.
    const device = pushDevice(`renewed-${(pushDevices += 1)}`);
    await ok({ method: 'PUT', url: '/api/push/subscription', headers: as(owner), payload: device });
    return {
      method: 'POST',
      url: '/api/push/renew',
      payload: { previous: { endpoint: device.endpoint, auth: device.keys.auth }, ...pushDevice(`new-${pushDevices}`) },
    };
  },
  'POST /api/v1/apps': async () => ({
    method: 'POST',
    url: '/api/v1/apps',
    payload: { client_name: 'A matrix app', redirect_uris: OOB, scopes: 'read' },
  }),
  'GET /api/v1/apps/verify_credentials': async () => ({ method: 'GET', url: '/api/v1/apps/verify_credentials' }),
  'GET /api/oauth/authorizations/new': async () => ({
    method: 'GET',
    url: `/api/oauth/authorizations/new?${new URLSearchParams({ ...(await authorization()) })}`,
  }),
  'POST /api/oauth/authorizations': async () => ({
    method: 'POST',
    url: '/api/oauth/authorizations',
    payload: { ...(await authorization()), approve: true },
  }),
  'GET /api/moderation/inquiries/:id/references/:referenceId': async () => {
    const [client, artist] = [await signUp(ctx.app), await signUp(ctx.app)];
    const id = await newInquiry(client, artist);
    const { payload, contentType } = multipart([
      { name: 'file', data: await tinyPng(), filename: 'p.png', contentType: 'image/png' },
    ]);
    const added = await ok({
      method: 'POST',
      url: `/api/inquiries/${id}/references`,
      payload,
      headers: as(client, { 'content-type': contentType }),
    });
    await ok({
      method: 'POST',
      url: '/api/reports',
      headers: as(artist),
      payload: { targetType: 'inquiry', targetId: id, reason: 'harassment' },
    });
    const referenceId = (added.json() as { reference: { _id: string } }).reference._id;
    return { method: 'GET', url: `/api/moderation/inquiries/${id}/references/${referenceId}` };
  },
};

describe('authorization matrix', () => {
  it('covers every registered route', () => {
    const routes = ctx.app.apiRoutes.filter((r) => !r.hidden).map((r) => `${r.method} ${r.url}`);
    expect(Object.keys(MATRIX).sort()).toEqual([...routes].sort());
    expect(Object.keys(REQUESTS).sort()).toEqual([...routes].sort());
  });

  for (const route of Object.keys(MATRIX)) {
    const expected = KINDS.map((kind) => expectedStatus(route, kind));
    it(`${route}: ${expected.join(' ')}`, async () => {
      const method = route.split(' ')[0]!;
      for (const [i, kind] of KINDS.entries()) {
        const options = await REQUESTS[route]!(kind);
        const token = tokens[kind];
        const headers: Record<string, string> = { prefer: 'return=minimal', ...(options.headers as object) };
        // A route may sign in its own session of the cell's account (LOG OUT must not end the matrix's tokens).
        if (token !== undefined && route !== 'POST /api/auth/verify' && !headers.authorization) {
          headers.authorization = token;
        }
        const before = method === 'GET' ? '' : await snapshot();
        const response = await ctx.app.inject({ ...options, headers });
        const label = `${route} with ${kind}`;
        const cell = (checked[kind] ??= { cells: 0, statuses: {} });
        cell.cells += 1;
        cell.statuses[response.statusCode] = (cell.statuses[response.statusCode] ?? 0) + 1;
        figures.routes.add(route);
        expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBe(expected[i]);
        if (response.statusCode >= 400 && isMastodonRoute(route)) {
          expectCleanMastodonRefusal(response, label);
        } else if (response.statusCode >= 400) {
          expectCleanRefusal(response, label);
          if (method !== 'GET') {
            expect(await snapshot(), `${label}: a refused write changed rows`).toBe(before);
            figures.refusedWrites += 1;
          }
          if (response.statusCode === 401 && route !== 'POST /api/auth/verify') {
            expect(response.json().errors[0]).toBe(kind === 'none' ? ERRORS.missingToken : ERRORS.invalidToken);
          }
          if (kind === 'deleted' && response.statusCode === 404 && route !== 'POST /api/auth/verify')
            expect(response.json().errors[0]).toBe(ACCOUNT_GONE);
          if ((kind === 'other' || kind === 'moderator' || kind === 'admin') && OTHER_MESSAGES[route])
            expect(response.json().errors[0]).toBe(OTHER_MESSAGES[route]);
          if (kind === 'suspended' && response.statusCode === 403)
            expect(response.json().errors[0]).toBe(MODERATION_MESSAGES.suspended);
        }
      }
    });
  }
});
