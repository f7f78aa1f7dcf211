import { MessageSquarePlus } from 'lucide-react';
import { Trans } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../../ui/button';
import { useInquiryPolicy } from '../api/inquiries-api';
import styles from './send-inquiry.module.css';

const SendInquiryDialog = lazy(() =>
  import('./send-inquiry-dialog').then((module) => ({ default: module.SendInquiryDialog })),
);

/**
 * "Send an inquiry" (issue 42), for a signed-in visitor of an artist's profile or commission panel: the button when
 * the artist takes their inquiries, a line saying why not when they take followers' only, nothing when closed.
 */
export default function SendInquiryButton({ username }: { username: string }) {
  const [open, setOpen] = useState(false);
  const policy = useInquiryPolicy(username);
  if (!policy.data || policy.data.accepting === 'closed') return null;
  if (!policy.data.canSend) return <p className={styles.note}>{policy.data.reason}</p>;
  return (
    <div className={styles.send}>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <MessageSquarePlus aria-hidden size={18} />
        <Trans>Send an inquiry</Trans>
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SendInquiryDialog username={username} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
