import { MapPinOff } from 'lucide-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { NotFound } from '../../../ui/not-found';
import { PageHeading } from '../../../ui/page-heading';
import { Tabs } from '../../../ui/tabs';
import { useAuditLog, useModerationQueue } from '../api/moderation-api';
import { roleOf } from '../api/role';
import { AuditEntries } from '../components/audit-entries';
import { PagedList } from '../components/paged-list';
import { ServerBlocks } from '../components/server-blocks';
import { TargetCard } from '../components/target-card';
import styles from '../components/moderation.module.css';

function Queue() {
  const { t } = useLingui();
  const queue = useModerationQueue();
  const targets = queue.data?.pages.flatMap((page) => page.targets) ?? [];
  return (
    <PagedList query={queue} count={targets.length} empty={t`No open reports. Nothing to review.`}>
      <ul className={styles.list} aria-label={t`Reported content`}>
        {targets.map((target) => (
          <li key={`${target.targetType}:${target.targetId}`}>
            <TargetCard target={target} />
          </li>
        ))}
      </ul>
    </PagedList>
  );
}

function AuditLog() {
  const { t } = useLingui();
  const log = useAuditLog();
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <PagedList query={log} count={entries.length} empty={t`No actions yet.`}>
      <AuditEntries entries={entries} label={t`Audit log`} />
    </PagedList>
  );
}

type Section = 'reports' | 'servers' | 'audit';

/**
 * /moderation: moderators and admins review the open reports and keep the list of blocked servers; admins also
 * read the audit log.
 */
export default function ModerationPage() {
  const { t } = useLingui();
  const { data: me } = useCurrentUser();
  const role = roleOf(me);
  useDocumentTitle(role === 'user' ? t`Not found` : t`Moderation`);
  const [tab, setTab] = useState<Section>('reports');

  // Everyone else finds nothing here, as at any address that is not a page.
  if (role === 'user') {
    return (
      <NotFound icon={MapPinOff} title={t`Page not found`}>
        <Trans>There is nothing at this address. Check the link, or find art on Explore.</Trans>
      </NotFound>
    );
  }

  return (
    <>
      <PageHeading title={t`Moderation`} description={t`Review what people reported, and act on it with a reason.`} />
      <Tabs
        label={t`Moderation sections`}
        items={[
          { value: 'reports', label: t`Reports` },
          { value: 'servers', label: t`Servers` },
          ...(role === 'admin' ? [{ value: 'audit' as const, label: t`Audit log` }] : []),
        ]}
        value={tab}
        onChange={setTab}
      >
        {tab === 'reports' ? <Queue /> : tab === 'servers' ? <ServerBlocks /> : <AuditLog />}
      </Tabs>
    </>
  );
}
