import { redirect, type LoaderFunctionArgs } from 'react-router';

const LEGACY_PREFIX = 'posts:';

/**
 * One reading of the spec spells the post route `/posts:postId`; such a path lands on the
 * `/:username` route (usernames cannot contain ":"), so send it to `/posts/{postId}`.
 */
export function legacyPostRedirect({ params }: LoaderFunctionArgs) {
  const segment = params.username ?? '';
  if (segment.startsWith(LEGACY_PREFIX) && segment.length > LEGACY_PREFIX.length) {
    throw redirect(`/posts/${encodeURIComponent(segment.slice(LEGACY_PREFIX.length))}`);
  }
  return null;
}
