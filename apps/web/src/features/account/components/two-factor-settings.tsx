import { t } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { TotpSetupResponse, TwoFactorStatus } from '@share-arts/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { formatFullDate } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import {
  useAddPasskey,
  useRemovePasskey,
  useTotpConfirm,
  useTotpDisable,
  useTotpSetup,
  useTwoFactorStatus,
} from '../api/use-two-factor';
import { isReauthCancelled, problemOf } from '../lib/reauth';
import { useConfirmedAction } from '../lib/use-confirmed-action';
import styles from './two-factor-settings.module.css';

/** The code typed in a small form: its value and problem, and what a submit does with it. */
function useCodeForm(submit: (code: string, fail: (message: string) => void) => void) {
  const [problem, setProblem] = useState<string>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    if (!code) {
      setProblem(t`Type the 6 digits your authenticator app shows.`);
      return;
    }
    setProblem(undefined);
    submit(code, setProblem);
  };
  return { problem, onSubmit };
}

/** The recovery codes, shown once after the app is turned on, to copy or download. */
function RecoveryCodesList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  const heading = t`Share Arts recovery codes (each works once):`;
  const text = `${heading}\n\n${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = 'share-arts-recovery-codes.txt';
    anchor.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className={styles.step}>
      <p role="status" className={styles.ok}>
        <Trans>Two-factor sign-in is on.</Trans>
      </p>
      <p className={styles.hint}>
        <Trans>
          Save these recovery codes somewhere safe, such as a password manager. If you lose your phone, each one signs
          you in once instead of a code. They are shown only this once.
        </Trans>
      </p>
      <ol className={styles.codes} aria-label={t`Recovery codes`}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className={styles.row}>
        <Button
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? t`Copied` : t`Copy the codes`}
        </Button>
        <Button variant="secondary" onClick={download}>
          <Trans>Download the codes</Trans>
        </Button>
        <Button onClick={onDone}>
          <Trans>I saved them</Trans>
        </Button>
      </div>
    </div>
  );
}

/** Setting the app up: the QR code and the key in text, then a first code turns it on. */
function TotpSetup({
  setup,
  onConfirmed,
  onCancel,
}: {
  setup: TotpSetupResponse;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const { confirmed, dialog } = useConfirmedAction();
  const confirm = useTotpConfirm(confirmed);
  const form = useCodeForm((code, fail) =>
    confirm.mutate(
      { code },
      {
        onSuccess: (answer) => onConfirmed(answer.recoveryCodes),
        onError: (error) => {
          if (!isReauthCancelled(error)) fail(errorMessage(error));
        },
      },
    ),
  );
  const key = setup.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <div className={styles.step}>
      <p className={styles.hint}>
        <Trans>
          Scan this QR code with an authenticator app (such as 1Password, Google Authenticator, Microsoft Authenticator
          or Aegis), then type the 6-digit code it shows.
        </Trans>
      </p>
      <img
        className={styles.qr}
        src={setup.qrCode}
        alt={t`QR code to add Share Arts to your authenticator app`}
        width={180}
        height={180}
      />
      <p className={styles.hint}>
        <Trans>
          Cannot scan? Type this key into the app instead:{' '}
          <code className={styles.secret} data-testid="totp-secret">
            {key}
          </code>
        </Trans>
      </p>
      <form className={styles.form} onSubmit={form.onSubmit} noValidate>
        <TextField
          name="code"
          label={t`Code from the app`}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={10}
          error={form.problem}
        />
        <div className={styles.row}>
          <Button type="submit" disabled={confirm.isPending}>
            <Trans>Turn on</Trans>
          </Button>
          <Button variant="secondary" onClick={onCancel} disabled={confirm.isPending}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </form>
      {dialog}
    </div>
  );
}

function TotpSection({ status }: { status: TwoFactorStatus }) {
  const { t } = useLingui();
  const { confirmed, dialog } = useConfirmedAction();
  const setup = useTotpSetup(confirmed);
  const disable = useTotpDisable();
  const [started, setStarted] = useState<TotpSetupResponse>();
  const [codes, setCodes] = useState<string[]>();
  const off = useCodeForm((code, fail) => disable.mutate({ code }, { onError: (error) => fail(errorMessage(error)) }));

  const codesLeft = status.recoveryCodesLeft;
  if (codes) return <RecoveryCodesList codes={codes} onDone={() => setCodes(undefined)} />;
  if (started) {
    return (
      <TotpSetup
        setup={started}
        onCancel={() => setStarted(undefined)}
        onConfirmed={(recoveryCodes) => {
          setStarted(undefined);
          setCodes(recoveryCodes);
        }}
      />
    );
  }
  if (!status.totp) {
    return (
      <div className={styles.step}>
        <p className={styles.hint}>
          <Trans>Off. Turn it on to be asked for a code from an app on your phone after your password.</Trans>
        </p>
        <div className={styles.row}>
          <Button
            variant="secondary"
            disabled={setup.isPending}
            onClick={() => setup.mutate(undefined, { onSuccess: setStarted })}
          >
            <Trans>Set up an authenticator app</Trans>
          </Button>
        </div>
        {problemOf(setup.error) && (
          <p role="alert" className={styles.error}>
            {problemOf(setup.error)}
          </p>
        )}
        {dialog}
      </div>
    );
  }
  return (
    <div className={styles.step}>
      <p className={styles.ok}>
        <Plural value={codesLeft} one="On. # recovery code is left." other="On. # recovery codes are left." />
      </p>
      <form className={styles.form} onSubmit={off.onSubmit} noValidate>
        <TextField
          name="code"
          label={t`To turn it off, a code from the app or a recovery code`}
          autoComplete="one-time-code"
          maxLength={20}
          error={off.problem}
        />
        <div className={styles.row}>
          <Button type="submit" variant="danger" disabled={disable.isPending}>
            <Trans>Turn off</Trans>
          </Button>
        </div>
      </form>
    </div>
  );
}

function PasskeysSection({ status }: { status: TwoFactorStatus }) {
  const { confirmed, dialog } = useConfirmedAction();
  const add = useAddPasskey(confirmed);
  const remove = useRemovePasskey(confirmed);
  const problem = problemOf(add.error) ?? problemOf(remove.error);
  const [name, setName] = useState('');
  const { t } = useLingui();
  return (
    <div className={styles.step}>
      <p className={styles.hint}>
        <Trans>
          A passkey signs you in without your password, with your fingerprint, face or the screen lock of your device.
          With the authenticator app on, it also works as the second step instead of a code.
        </Trans>
      </p>
      {status.passkeys.length > 0 && (
        <ul className={styles.passkeys} aria-label={t`Your passkeys`}>
          {status.passkeys.map((passkey) => {
            const added = formatFullDate(passkey.createdAt);
            const used = passkey.lastUsedAt ? formatFullDate(passkey.lastUsedAt) : '';
            const passkeyName = passkey.name;
            return (
              <li key={passkey._id} className={styles.passkey}>
                <span className={styles.passkeyText}>
                  <strong>{passkeyName}</strong>
                  <span className={styles.hint}>
                    {used ? t`Added ${added}, last used ${used}` : t`Added ${added}, not used yet`}
                  </span>
                </span>
                <Button
                  variant="secondary"
                  disabled={remove.isPending}
                  aria-label={t`Remove the passkey ${passkeyName}`}
                  onClick={() => remove.mutate(passkey._id)}
                >
                  <Trans>Remove</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <form
        className={styles.form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate(name.trim(), { onSuccess: () => setName('') });
        }}
      >
        <TextField
          label={t`Name of the new passkey (optional)`}
          placeholder={t`My laptop`}
          maxLength={60}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <div className={styles.row}>
          <Button type="submit" variant="secondary" disabled={add.isPending}>
            <Trans>Add a passkey</Trans>
          </Button>
        </div>
      </form>
      {problem && (
        <p role="alert" className={styles.error}>
          {problem}
        </p>
      )}
      {dialog}
    </div>
  );
}

/** Settings' "Two-factor sign-in" (issue 24): an authenticator app with recovery codes, and passkeys. */
export function TwoFactorSettings() {
  const status = useTwoFactorStatus();
  return (
    <section className={styles.card} aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className={styles.title}>
        <Trans>Two-factor sign-in</Trans>
      </h2>
      {status.data ? (
        <>
          <h3 className={styles.subtitle}>
            <Trans>Authenticator app</Trans>
          </h3>
          <TotpSection status={status.data} />
          <h3 className={styles.subtitle}>
            <Trans>Passkeys</Trans>
          </h3>
          <PasskeysSection status={status.data} />
        </>
      ) : status.isError ? (
        <p role="alert" className={styles.error}>
          {errorMessage(status.error)}
        </p>
      ) : (
        <p className={styles.hint}>
          <Trans>Loading…</Trans>
        </p>
      )}
    </section>
  );
}
