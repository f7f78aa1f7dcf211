import { splitHandle } from '../lib/handle';

/**
 * `@username`, or a handle on another server whole (`@bob@pixelfed.example`), free to break before the server's @
 * in a narrow column rather than in the middle of a word (as a comment from another server names its author).
 */
export function Handle({ username }: { username: string }) {
  const { user, host } = splitHandle(username);
  // Left to right whatever the page's direction: an Arabic page would otherwise show "mira@" (issue 43).
  if (!host) return <bdi dir="ltr">@{user}</bdi>;
  return (
    <bdi dir="ltr">
      @{user}
      <wbr />@{host}
    </bdi>
  );
}
