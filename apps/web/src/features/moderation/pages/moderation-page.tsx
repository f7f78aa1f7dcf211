import { MapPinOff } from 'lucide-react';
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
  const queue = useModerationQueue();
  const targets = queue.data?.pages.flatMap((page) => page.targets) ?? [];
  return (
    <PagedList query={queue} count={targets.length} empty="No open reports. Nothing to review.">
      <ul className={styles.list} aria-label="Reported content">
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
  const log = useAuditLog();
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <PagedList query={log} count={entries.length} empty="No actions yet.">
      <AuditEntries entries={entries} label="Audit log" />
    </PagedList>
  );
}

type Section = 'reports' | 'servers' | 'audit';

/**
 * /moderation: moderators and admins review the open reports and keep the list of blocked servers; admins also
 * read the audit log.
 */
export default function ModerationPage() {
  const { data: me } = useCurrentUser();
  const role = roleOf(me);
  useDocumentTitle(role === 'user' ? 'Not found' : 'Moderation');
  const [tab, setTab] = useState<Section>('reports');

  // Everyone else finds nothing here, as at any address that is not a page.
  if (role === 'user') {
    return (
      <NotFound icon={MapPinOff} title="Page not found">
        There is nothing at this address. Check the link, or find art on Explore.
      </NotFound>
    );
  }

  return (
    <>
      <PageHeading title="Moderation" description="Review what people reported, and act on it with a reason." />
      <Tabs
        label="Moderation sections"
        items={[
          { value: 'reports', label: 'Reports' },
          { value: 'servers', label: 'Servers' },
          ...(role === 'admin' ? [{ value: 'audit' as const, label: 'Audit log' }] : []),
        ]}
        value={tab}
        onChange={setTab}
      >
        {tab === 'reports' ? <Queue /> : tab === 'servers' ? <ServerBlocks /> : <AuditLog />}
      </Tabs>
    </>
  );
}
