import { Trans, useLingui } from '@lingui/react/macro';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { useDataExport } from '../api/use-data-export';
import styles from './export-settings.module.css';

/** Settings' "Download your data" (issue 24): a zip of everything the account holds, saved by the browser. */
export function ExportSettings() {
  const { t } = useLingui();
  const download = useDataExport();
  return (
    <section className={styles.card} aria-labelledby="export-settings-title">
      <h2 id="export-settings-title" className={styles.title}>
        <Trans>Download your data</Trans>
      </h2>
      <p className={styles.hint}>
        <Trans>
          Get a copy of everything you made and chose here, in one zip file: your profile, your posts with their
          comments, the comments you wrote, your likes, saved posts, follows, followed tags, pins, blocks, mutes, muted
          words and notifications, and the original of every picture you uploaded, as you uploaded it (less the personal
          details, such as where a photo was taken, that were removed on upload). A README file in the zip explains what
          each file holds.
        </Trans>
      </p>
      <div className={styles.row}>
        <Button variant="secondary" disabled={download.isPending} onClick={() => download.mutate()}>
          {download.isPending ? t`Preparing…` : t`Download your data`}
        </Button>
      </div>
      {download.isPending && (
        <p role="status" className={styles.hint}>
          <Trans>Preparing your download…</Trans>
        </p>
      )}
      {download.isSuccess && (
        <p role="status" className={styles.hint}>
          <Trans>
            Your download has started: your browser is saving the zip. With many pictures it can take a few minutes.
          </Trans>
        </p>
      )}
      {download.isError && (
        <p role="alert" className={styles.error}>
          {errorMessage(download.error)}
        </p>
      )}
    </section>
  );
}
