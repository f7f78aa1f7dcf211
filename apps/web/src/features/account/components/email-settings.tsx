import type { User } from '@share-arts/contract';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { useResendConfirmation } from '../api/use-email-verification';
import styles from './email-settings.module.css';

/**
 * Your address and whether it is confirmed (issue 24): until it is, password reset links cannot be sent
 * to it, and "Resend confirmation" mails a new link.
 */
export function EmailSettings({ user }: { user: User }) {
  const resend = useResendConfirmation();
  if (!user.email) return null;
  return (
    <section className={styles.card} aria-labelledby="email-settings-title">
      <h2 id="email-settings-title" className={styles.title}>
        Email address
      </h2>
      <p className={styles.address}>
        <span className={styles.email}>{user.email}</span>
        <span className={user.emailVerified ? styles.confirmed : styles.unconfirmed}>
          {user.emailVerified ? 'Confirmed' : 'Unconfirmed'}
        </span>
      </p>
      {user.emailVerified ? (
        <p className={styles.hint}>If you forget your password, we can mail you a link to choose a new one.</p>
      ) : (
        <>
          <p className={styles.hint}>
            Please open the link we mailed to this address. Until you do, we cannot send you a link to reset a forgotten
            password.
          </p>
          <div className={styles.row}>
            <Button variant="secondary" disabled={resend.isPending || resend.isSuccess} onClick={() => resend.mutate()}>
              Resend confirmation
            </Button>
          </div>
          {resend.isSuccess && <p role="status">{resend.data.message}</p>}
          {resend.isError && (
            <p role="alert" className={styles.error}>
              {errorMessage(resend.error)}
            </p>
          )}
        </>
      )}
    </section>
  );
}
