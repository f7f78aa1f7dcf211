import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { PageHeading } from '../../../ui/page-heading';
import { AccountList, MutedWords } from '../../safety/settings';
import { EmailSettings } from '../../account/email';
import { TwoFactorSettings } from '../../account/two-factor';
import { ExportSettings } from '../../account/export';
import { DeleteAccount } from '../../account/delete';
import { PasswordSettings, SessionsSettings } from '../../account/sessions';
import { ModerationLink } from '../components/moderation-link';
import { useLogout } from '../api/use-logout';
import { ProfileForm } from '../components/profile-form';
import { RightsSettings } from '../components/rights-settings';
import { WorksVisibility } from '../components/works-visibility';
import styles from './settings-page.module.css';

export default function SettingsPage() {
  useDocumentTitle('Settings');
  const { data: user } = useCurrentUser();
  const logout = useLogout();

  return (
    <>
      <PageHeading title="Settings" description="Edit how other artists see you, or log out." />
      <div className={styles.sections}>
        {user && <ModerationLink user={user} />}
        {/* Keyed by id so the form re-fills when another account signs in. */}
        {user && <ProfileForm key={user._id} user={user} />}
        {user && <WorksVisibility user={user} />}
        {user && <RightsSettings user={user} />}
        {user && <AccountList kind="blocks" />}
        {user && <AccountList kind="mutes" />}
        {user && <MutedWords />}
        {user && <EmailSettings user={user} />}
        {user && <ExportSettings />}
        {user && <TwoFactorSettings />}
        {user && <PasswordSettings />}
        {user && <SessionsSettings />}
        <section className={styles.card} aria-labelledby="session-title">
          <h2 id="session-title" className={styles.cardTitle}>
            Session
          </h2>
          <div className={styles.sessionRow}>
            <p className={styles.sessionText}>Log out of Share Arts on this device.</p>
            <Button variant="danger" onClick={() => void logout()}>
              LOG OUT
            </Button>
          </div>
        </section>
        {user && <DeleteAccount username={user.username} />}
      </div>
    </>
  );
}
