import { Trans } from '@lingui/react/macro';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SharedItems } from '../../../lib/pwa/shared-items';
import { Button } from '../../../ui/button';

// The dialog is its own chunk; the emoji picker inside it is another, fetched only when opened.
const PostComposer = lazy(() => import('./post-composer'));

/** The address params that open the composer (the Add Post shortcut, the share target: lib/pwa/shared-items.ts). */
const COMPOSE_PARAMS = ['compose', 'share', 'text', 'dropped'];

/**
 * "Add Post": opens the composer; focus returns here when it closes. `?compose` in the address opens it at
 * once (the installed app's Add Post shortcut), with what was shared to the app when it came from the share
 * target (issue 44); the params then leave the address, so a reload does not open it again.
 */
export function AddPostButton({ className }: { className?: string }) {
  const [open, setOpen] = useState(false);
  const [shared, setShared] = useState<SharedItems>();
  const [search, setSearch] = useSearchParams();
  const composing = search.has('compose');
  useEffect(() => {
    if (!composing) return;
    let cancelled = false;
    // Its own small chunk: only an address that asks for the composer loads it (not on Home's first paint).
    void import('../../../lib/pwa/shared-items').then(async ({ composeRequest }) => {
      const request = await composeRequest(search);
      if (cancelled || !request) return;
      setShared(request);
      setOpen(true);
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          for (const name of COMPOSE_PARAMS) next.delete(name);
          return next;
        },
        { replace: true },
      );
    });
    return () => {
      cancelled = true;
    };
  }, [composing, search, setSearch]);

  return (
    <>
      <Button
        className={className}
        onClick={() => {
          setShared(undefined);
          setOpen(true);
        }}
        // Start fetching the dialog's code as soon as the pointer is on its way.
        onPointerEnter={() => void import('./post-composer')}
        onFocus={() => void import('./post-composer')}
      >
        <Plus aria-hidden="true" size="1.2em" />
        <Trans>Add Post</Trans>
      </Button>
      {open && (
        <Suspense fallback={null}>
          <PostComposer shared={shared} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
