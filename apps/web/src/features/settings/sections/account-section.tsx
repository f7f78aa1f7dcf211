import type { User } from '@share-arts/contract';
import { EmailSettings } from '../../account/email';
import { TwoFactorSettings } from '../../account/two-factor';
import { ExportSettings } from '../../account/export';
import { ImportSettings } from '../../imports/settings';
import { DeleteAccount } from '../../account/delete';
import { PasswordSettings, SessionsSettings } from '../../account/sessions';
import { SecurityLog } from '../../account/security';
import { AccountAliases } from '../components/account-aliases';
import { AccountMove } from '../components/account-move';

/**
 * /settings/account: address, password, second factor, devices, your data, moving and deleting the account. A chunk
 * of its own.
 */
export default function AccountSection({ user }: { user: User }) {
  return (
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
  );
}
