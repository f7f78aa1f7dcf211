/** "First Last", or the username when the person gave no name. */
export function fullName(user: { firstName: string; lastName: string; username: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

/** The default photo every account starts with (served from the server's defaults). */
export function isDefaultPhoto(userPhoto: string): boolean {
  return !userPhoto || userPhoto.includes('/media/defaults/');
}
