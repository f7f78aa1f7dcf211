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
import { ModerationLink } from '../components/moderation-link';
import { useLogout } from '../api/use-logout';
import { ProfileForm } from '../components/profile-form';
import { SETTINGS_SECTIONS, SettingsNav } from '../components/settings-nav';
import { LanguageSettings } from '../components/language-settings';
import styles from './settings-page.module.css';

/** "Open for commissions" (issue 42): its own chunk, loaded on the Profile section only. */
const CommissionSettings = lazy(() => import('../../commissions/settings'));
// The other sections are chunks of their own: a visit (and a switch of language, which loads the words of what is
// here: issue 43) brings only the section shown.
const PrivacySection = lazy(() => import('../sections/privacy-section'));
const AccountSection = lazy(() => import('../sections/account-section'));

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
          <Suspense fallback={null}>
            {section.path === 'privacy' && <PrivacySection user={user} />}
            {section.path === 'account' && <AccountSection user={user} />}
          </Suspense>
        </div>
      )}
    </>
  );
}
