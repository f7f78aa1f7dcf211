import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../../ui/button';

// The dialog is its own chunk; the emoji picker inside it is another, fetched only when opened.
const PostComposer = lazy(() => import('./post-composer'));

/** "Add Post": opens the composer; focus returns here when it closes. */
export function AddPostButton({ className }: { className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        className={className}
        onClick={() => setOpen(true)}
        // Start fetching the dialog's code as soon as the pointer is on its way.
        onPointerEnter={() => void import('./post-composer')}
        onFocus={() => void import('./post-composer')}
      >
        <Plus aria-hidden="true" size="1.2em" />
        Add Post
      </Button>
      {open && (
        <Suspense fallback={null}>
          <PostComposer onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
