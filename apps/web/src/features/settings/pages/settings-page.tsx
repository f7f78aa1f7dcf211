import { useLingui } from '@lingui/react';
import { Trans, useLingui as useLinguiMacro } from '@lingui/react/macro';
import { MapPinOff } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { NotFound } from '../../../ui/not-found';
import { PageHeading } from '../../../ui/page-heading';
import { AccountList, MutedWords } from '../../safety/settings';
import { EmailSettings } from '../../account/email';
import { TwoFactorSettings } from '../../account/two-factor';
import { ExportSettings } from '../../account/export';
import { ImportSettings } from '../../imports/settings';
import { DeleteAccount } from '../../account/delete';
import { PasswordSettings, SessionsSettings } from '../../account/sessions';
import { SecurityLog } from '../../account/security';
import { AccountAliases } from '../components/account-aliases';
import { AccountMove } from '../components/account-move';
import { ModerationLink } from '../components/moderation-link';
import { useLogout } from '../api/use-logout';
import { ProfileForm } from '../components/profile-form';
import { RightsSettings } from '../components/rights-settings';
import { ViewsPrivacy } from '../components/views-privacy';
import { SETTINGS_SECTIONS, SettingsNav } from '../components/settings-nav';
import { WorksVisibility } from '../components/works-visibility';
import { LanguageSettings } from '../components/language-settings';
import styles from './settings-page.module.css';

/** "Open for commissions" (issue 42): its own chunk, loaded on the Profile section only. */
const CommissionSettings = lazy(() => import('../../commissions/settings'));

function LogOut() {
  const logout = useLogout();
  return (
    <section className={styles.card} aria-labelledby="session-title">
      <h2 id="session-title" className={styles.cardTitle}>
        <Trans>Session</Trans>
      </h2>
      <div className={styles.sessionRow}>
        <p className={styles.sessionText}>
          <Trans>Log out of Share Arts on this device.</Trans>
        </p>
        <Button variant="danger" onClick={() => void logout()}>
          <Trans>LOG OUT</Trans>
        </Button>
      </div>
    </section>
  );
}

/**
 * /settings (the profile, and LOG OUT as the spec has it), /settings/privacy (who sees your works and what
 * you see, blocks and mutes) and /settings/account (address, password, second factor, devices, your data,
 * deleting the account).
 */
export default function SettingsPage() {
  const { section: param = '' } = useParams();
  const { _ } = useLingui();
  const { t } = useLinguiMacro();
  const section = SETTINGS_SECTIONS.find((candidate) => candidate.path === param);
  const label = section ? _(section.label) : '';
  useDocumentTitle(!section ? t`Not found` : section.path ? t`${label} · Settings` : t`Settings`);
  const { data: user } = useCurrentUser();

  if (!section) {
    return (
      <NotFound icon={MapPinOff} title={t`Page not found`}>
        <Trans>There is nothing at this address. Settings has Profile, Privacy and safety, and Account.</Trans>
      </NotFound>
    );
  }

  return (
    <>
      <PageHeading title={t`Settings`} description={_(section.description)} />
      <SettingsNav />
      {user && (
        <div className={styles.sections}>
          {section.path === '' && (
            <>
              <ModerationLink user={user} />
              {/* Keyed by id so the form re-fills when another account signs in. */}
              <ProfileForm key={user._id} user={user} />
              <LanguageSettings user={user} />
              <Suspense fallback={null}>
                <CommissionSettings key={`commissions-${user._id}`} />
              </Suspense>
              <LogOut />
            </>
          )}
          {section.path === 'privacy' && (
            <>
              <WorksVisibility user={user} />
              <RightsSettings user={user} />
              <AccountList kind="blocks" />
              <AccountList kind="mutes" />
              <MutedWords />
              {/* What insights count (issue 42). */}
              <ViewsPrivacy />
            </>
          )}
          {section.path === 'account' && (
            <>
              <EmailSettings user={user} />
              <PasswordSettings />
              <TwoFactorSettings />
              <SessionsSettings />
              <SecurityLog />
              <ImportSettings />
              <AccountAliases username={user.username} />
              <AccountMove username={user.username} />
              <ExportSettings />
              <DeleteAccount username={user.username} />
            </>
          )}
        </div>
      )}
    </>
  );
}
