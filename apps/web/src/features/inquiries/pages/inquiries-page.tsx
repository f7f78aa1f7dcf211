import type { Inquiry } from '@share-arts/contract';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
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
  const { i18n } = useLingui();
  const other = otherPerson(inquiry);
  const username = other.username;
  const messageCount = inquiry.messageCount;
  const budget = budgetText(inquiry.budget, i18n.locale);
  return (
    <li className={styles.row}>
      <Avatar src={other.userPhoto} name={fullName(other)} decorative />
      <div className={styles.rowText}>
        <Link className={styles.rowLink} to={`/inquiries/${encodeURIComponent(inquiry._id)}`}>
          {inquiry.viewer.role === 'artist' ? <Trans>From @{username}</Trans> : <Trans>To @{username}</Trans>}
        </Link>
        <p className={styles.excerpt}>{inquiry.body}</p>
        <p className={styles.meta}>
          <span className={styles.state} data-state={inquiry.state}>
            {i18n._(STATE_LABELS[inquiry.state])}
          </span>
          {budget && <span>{budget}</span>}
          <span>
            <Plural value={messageCount} one="# message" other="# messages" />
          </span>
          <time dateTime={inquiry.updatedAt}>{formatPostTime(inquiry.updatedAt)}</time>
        </p>
      </div>
    </li>
  );
}

function InquiryList({ box }: { box: Box }) {
  const { t } = useLingui();
  const { inquiries, isPending, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useInquiries(box);
  if (isPending)
    return (
      <p role="status">
        <Trans>Loading inquiries…</Trans>
      </p>
    );
  if (error && inquiries.length === 0) {
    const problem = errorMessage(error);
    return (
      <p role="alert">
        <Trans>The inquiries could not be loaded: {problem}</Trans>
      </p>
    );
  }
  if (inquiries.length === 0) {
    return (
      <p className={styles.empty}>
        {box === 'artist'
          ? t`No inquiries yet. People can send you one from your profile.`
          : t`You have not sent any inquiry. Send one from an artist’s profile.`}
      </p>
    );
  }
  return (
    <>
      <ul className={styles.list} aria-label={box === 'artist' ? t`Inquiries you received` : t`Inquiries you sent`}>
        {inquiries.map((inquiry) => (
          <InquiryRow key={inquiry._id} inquiry={inquiry} />
        ))}
      </ul>
      {hasNextPage && (
        <Button variant="secondary" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? t`Loading…` : t`Show more`}
        </Button>
      )}
    </>
  );
}

/** /inquiries (issue 42): the inquiries received (the artist's inbox) and sent, and who may send them. */
export default function InquiriesPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Inquiries`);
  const [box, setBox] = useState<Box>('artist');
  return (
    <div className={styles.page}>
      <PageHeading
        title={t`Inquiries`}
        description={t`Requests for commissions: one thread per request, between you and the other person only.`}
      />
      <Tabs
        label={t`Inquiries`}
        items={[
          { value: 'artist', label: t`Received` },
          { value: 'client', label: t`Sent` },
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
