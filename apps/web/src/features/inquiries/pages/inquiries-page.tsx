import type { Inquiry } from '@share-arts/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { formatPostTime } from '../../../lib/format-date';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { fullName } from '../../../lib/user-name';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import { PageHeading } from '../../../ui/page-heading';
import { Tabs } from '../../../ui/tabs';
import { useInquiries } from '../api/inquiries-api';
import { InquirySettingsCard } from '../components/inquiry-settings';
import { budgetText, otherPerson, STATE_LABELS } from '../model/words';
import styles from './inquiries.module.css';

type Box = 'artist' | 'client';

function InquiryRow({ inquiry }: { inquiry: Inquiry }) {
  const other = otherPerson(inquiry);
  const budget = budgetText(inquiry.budget);
  return (
    <li className={styles.row}>
      <Avatar src={other.userPhoto} name={fullName(other)} decorative />
      <div className={styles.rowText}>
        <Link className={styles.rowLink} to={`/inquiries/${encodeURIComponent(inquiry._id)}`}>
          {inquiry.viewer.role === 'artist' ? `From @${other.username}` : `To @${other.username}`}
        </Link>
        <p className={styles.excerpt}>{inquiry.body}</p>
        <p className={styles.meta}>
          <span className={styles.state} data-state={inquiry.state}>
            {STATE_LABELS[inquiry.state]}
          </span>
          {budget && <span>{budget}</span>}
          <span>{inquiry.messageCount === 1 ? '1 message' : `${inquiry.messageCount} messages`}</span>
          <time dateTime={inquiry.updatedAt}>{formatPostTime(inquiry.updatedAt)}</time>
        </p>
      </div>
    </li>
  );
}

function InquiryList({ box }: { box: Box }) {
  const { inquiries, isPending, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useInquiries(box);
  if (isPending) return <p role="status">Loading inquiries…</p>;
  if (error && inquiries.length === 0)
    return <p role="alert">The inquiries could not be loaded: {errorMessage(error)}</p>;
  if (inquiries.length === 0) {
    return (
      <p className={styles.empty}>
        {box === 'artist'
          ? 'No inquiries yet. People can send you one from your profile.'
          : 'You have not sent any inquiry. Send one from an artist’s profile.'}
      </p>
    );
  }
  return (
    <>
      <ul className={styles.list} aria-label={box === 'artist' ? 'Inquiries you received' : 'Inquiries you sent'}>
        {inquiries.map((inquiry) => (
          <InquiryRow key={inquiry._id} inquiry={inquiry} />
        ))}
      </ul>
      {hasNextPage && (
        <Button variant="secondary" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? 'Loading…' : 'Show more'}
        </Button>
      )}
    </>
  );
}

/** /inquiries (issue 42): the inquiries received (the artist's inbox) and sent, and who may send them. */
export default function InquiriesPage() {
  useDocumentTitle('Inquiries');
  const [box, setBox] = useState<Box>('artist');
  return (
    <div className={styles.page}>
      <PageHeading
        title="Inquiries"
        description="Requests for commissions: one thread per request, between you and the other person only."
      />
      <Tabs
        label="Inquiries"
        items={[
          { value: 'artist', label: 'Received' },
          { value: 'client', label: 'Sent' },
        ]}
        value={box}
        onChange={setBox}
      >
        <InquiryList key={box} box={box} />
      </Tabs>
      <InquirySettingsCard />
    </div>
  );
}
