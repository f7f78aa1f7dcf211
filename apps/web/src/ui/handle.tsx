import { splitHandle } from '../lib/handle';

/**
 * `@username`, or a handle on another server whole (`@bob@pixelfed.example`), free to break before the server's @
 * in a narrow column rather than in the middle of a word (as a comment from another server names its author).
 */
export function Handle({ username }: { username: string }) {
  const { user, host } = splitHandle(username);
  if (!host) return <>@{user}</>;
  return (
    <>
      @{user}
      <wbr />@{host}
    </>
  );
}
