/** Reads `viewer.blocked` / `viewer.muted` of a user: the viewer's own choices (false while a server sends none). */
export function safetyOf(user: { viewer: object }): { blocked: boolean; muted: boolean } {
  const viewer = user.viewer as { blocked?: boolean; muted?: boolean };
  return { blocked: viewer.blocked === true, muted: viewer.muted === true };
}
